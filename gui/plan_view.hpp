// The plan view (DESIGN §9): a presented plan takes the editor area, header
// "Plan — <title> · <path>", rendered read-only with inactive links. Esc or × closes it
// (the decision stays pending); the approval bar's "Plan" button shows it again, repainted
// from the plan as it is now.
#pragma once

#include "protocol/wire.hpp"

#include <QWidget>

namespace rio::gui {

class MarkdownView;
class ViewHeader;

class PlanView : public QWidget {
    Q_OBJECT
public:
    explicit PlanView(QWidget* parent = nullptr);

    // From agent.propose {kind: plan, title, plan, path}; `markdown` is the text to paint
    // (the proposal's plan, or the plan as it is now when reopened).
    void show_plan(const QString& title, const QString& path, const QString& markdown);
    QString header_text() const;
    MarkdownView* body() const { return body_; }

signals:
    void close_requested(); // Esc or ×

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    ViewHeader* header_;
    MarkdownView* body_;
};

} // namespace rio::gui
