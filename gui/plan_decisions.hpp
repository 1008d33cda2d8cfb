// The decision controls the plan view carries in its header and at its foot (DESIGN §13):
// Approve ▾ (review each edit / auto-accept edits / in a fresh context), Request changes and
// Edit plan. It only reports presses; the review flow sends the decision.
#pragma once

#include <QWidget>

class QMenu;
class QPushButton;

namespace rio::gui {

class PlanDecisions : public QWidget {
    Q_OBJECT
public:
    explicit PlanDecisions(QWidget* parent = nullptr);

    void set_deciding(bool deciding); // a decision is on its way: the buttons wait

    QPushButton* approve_button() const { return approve_; }
    QMenu* approve_menu() const { return menu_; }
    QAction* approve_review_action() const { return review_; }
    QAction* approve_auto_action() const { return auto_; }
    QAction* approve_fresh_action() const { return fresh_; }
    QPushButton* request_changes_button() const { return request_changes_; }
    QPushButton* edit_plan_button() const { return edit_plan_; }

signals:
    void approve_requested(const QString& policy, bool fresh); // "review" or "auto"
    void request_changes_requested();
    void edit_plan_requested();

private:
    QPushButton* approve_;
    QMenu* menu_;
    QAction* review_;
    QAction* auto_;
    QAction* fresh_;
    QPushButton* request_changes_;
    QPushButton* edit_plan_;
};

} // namespace rio::gui
