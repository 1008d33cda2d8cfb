// The bar above the editors that asks, in words, whether to trust what a project's own
// files would grant (DESIGN §12): "This project's .rio/allow would let the agent run
// `make test` without asking. Trust this project?" It shows what project.trust says and
// sends the person's answer; nothing of those files applies until they say yes.
#pragma once

#include "protocol/wire.hpp"

#include <QFrame>

class QLabel;
class QPushButton;

namespace rio::gui {

class CoreClient;

class TrustBar : public QFrame {
    Q_OBJECT
public:
    explicit TrustBar(CoreClient& core, QWidget* parent = nullptr);

    // project.trust's params (or project.trust.get's result).
    void show_trust(const Json& trust);
    // Asks the core about the open project (after it opened one).
    void refresh();

    QLabel* text() const { return text_; }
    QPushButton* trust_button() const { return trust_; }
    QPushButton* dismiss_button() const { return dismiss_; }

private:
    CoreClient& core_;
    QLabel* text_;
    QPushButton* trust_;
    QPushButton* dismiss_;
    std::string shown_;     // the files' hashes the bar speaks of
    std::string dismissed_; // those the person said "not now" to: asked again once they change
};

} // namespace rio::gui
