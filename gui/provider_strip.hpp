// "provider · model" at the top of the chat, from agent.status. A click opens a menu of the
// providers the core offers (agent.providers, asked for when the menu opens); picking one
// asks the core to switch. The label changes when the core's status says it did.
#pragma once

#include "protocol/wire.hpp"

#include <QToolButton>

class QMenu;

namespace rio::gui {

class ProviderStrip : public QToolButton {
    Q_OBJECT
public:
    explicit ProviderStrip(QWidget* parent = nullptr);

    void show_status(const QString& provider, const QString& model);
    // agent.providers' result: {current, providers: [{name, description, key, active}]}.
    void show_providers(const Json& providers);
    QMenu* providers_menu() const { return menu_; }

signals:
    void menu_opening(); // time to ask the core for the list
    void provider_chosen(const QString& name);

private:
    QMenu* menu_;
};

} // namespace rio::gui
