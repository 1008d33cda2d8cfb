// The Plans panel (DESIGN §13): the project's filed plans from plans.list, newest first,
// each with its status and when it was presented, filtered by status; a revision chain is one
// entry, the newest plan of it, with the plans it revises beneath. Activating one shows it
// read-only in its own plan view (Esc closes). Refreshed when a project is shown and on
// plans.changed.
#pragma once

#include "client/events.hpp"

#include <QDockWidget>

class QComboBox;
class QTreeWidget;
class QTreeWidgetItem;

namespace rio::gui {

class MainWindow;
class PlanView;

class PlansPanel : public QDockWidget {
    Q_OBJECT
public:
    explicit PlansPanel(MainWindow& window);

    void refresh();                 // plans.list
    void open(const QString& path); // plans.get, then the read-only view

    QTreeWidget* list() const { return list_; }
    // "All", then one entry per status; a chain stays listed while any plan of it matches.
    QComboBox* status_filter() const { return filter_; }
    PlanView* view() const { return view_; }

signals:
    void listed();                    // a plans.list answer is shown
    void opened(const QString& path); // a plan is shown in the view

private:
    void on_event(const client::CoreEvent& event);
    void show_plans(const PlansListResult& list);
    void apply_filter();

    MainWindow& window_;
    QComboBox* filter_;
    QTreeWidget* list_;
    PlanView* view_;
};

} // namespace rio::gui
