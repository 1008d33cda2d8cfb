// How full the model's context window is (DESIGN §18), beside the model's name: a thin bar
// with the share used ("≈" while it is rio's estimate, before a provider's count), the
// figures in its tooltip, and a Compact button that asks the core to make the conversation
// smaller (agent.compact).
#pragma once

#include "protocol/messages.hpp"

#include <QWidget>

class QProgressBar;
class QToolButton;

namespace rio::gui {

class ContextMeter : public QWidget {
    Q_OBJECT
public:
    explicit ContextMeter(QWidget* parent = nullptr);

    // agent.status's context; nothing (an older core) hides the meter.
    void show_context(const std::optional<ContextInfo>& context, bool busy);
    QString text() const;    // what the bar says: "12%", "≈3%"
    QString figures() const; // the tooltip's words
    QToolButton* compact_button() const { return compact_; }

signals:
    void compact_requested();

private:
    QProgressBar* bar_;
    QToolButton* compact_;
};

} // namespace rio::gui
