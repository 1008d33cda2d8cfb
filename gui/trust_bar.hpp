// The bar above the editors that asks, in words, whether to trust a project (DESIGN §12):
// "This project's .rio/allow would let the agent run `make test` without asking. Trust this
// project?" It shows what project.trust says (client/trust_question's words) and sends the
// person's answer with the files it showed; nothing of the project grants power until then.
#pragma once

#include "protocol/messages.hpp"
#include "protocol/wire.hpp"

#include <QFrame>
#include <optional>
#include <string>

class QLabel;
class QPushButton;

namespace rio::gui {

class CoreClient;

class TrustBar : public QFrame {
    Q_OBJECT
public:
    explicit TrustBar(CoreClient& core, QWidget* parent = nullptr);

    // project.trust's params (or project.trust.get's result).
    void show_trust(const ProjectTrustState& state);
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
    ProjectTrustState showing_; // what the bar says, which Trust answers for
    std::string shown_;         // the files' hashes and the waiting servers the bar speaks of
    // What the person said "not now" to, once they did: asked again once it changes.
    std::optional<std::string> dismissed_;
};

} // namespace rio::gui
