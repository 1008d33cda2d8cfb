// "provider · model" at the top of the chat, from agent.status. A click opens a menu of the
// providers the core offers (agent.providers, asked for when the menu opens); picking one
// that can be used asks the core to switch, and the label changes when the core's status says
// it did. Picking one that lacks a key, or "Providers…", asks for the Providers page instead.
// A long label is cut with "…" (the whole of it in the tooltip), so the controls beside it
// keep their places whatever the provider and model are called.
#pragma once

#include "protocol/messages.hpp"

#include <QToolButton>

class QMenu;

namespace rio::gui {

class ProviderStrip : public QToolButton {
    Q_OBJECT
public:
    explicit ProviderStrip(QWidget* parent = nullptr);

    // `builder`: who takes over at approval, when another model plans (DESIGN §20).
    void show_status(const QString& provider, const QString& model, const QString& builder = {});
    QString full_text() const { return full_; } // the label before it is cut to fit
    // agent.providers' result: the menu's entries.
    void show_providers(const ProvidersResult& providers);
    QMenu* providers_menu() const { return menu_; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void menu_opening(); // time to ask the core for the list
    void provider_chosen(const QString& name);
    // The Providers page, on `name` ("" for the one in use): it lacks a key, or the person
    // asked for the page.
    void setup_requested(const QString& name);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void fit_text();
    void keep_menu_on_screen();
    int padding() const; // what the button adds around its text

    QMenu* menu_;
    QString full_;
};

} // namespace rio::gui
