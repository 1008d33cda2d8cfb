// The one-line reason a person may give with a rejection (the approval bar, the plan view,
// the compare view): hidden until Reject is first pressed, Enter sends it, Esc puts it away
// empty and says so, so its owner can take the focus back.
#pragma once

#include <QLineEdit>

namespace rio::gui {

class ReasonField : public QLineEdit {
    Q_OBJECT
public:
    ReasonField(const QString& placeholder, const QString& accessible_name,
                QWidget* parent = nullptr);

    void open();     // shown, with the focus
    void put_away(); // emptied and hidden

signals:
    void escaped(); // Esc put it away

protected:
    void keyPressEvent(QKeyEvent* event) override;
};

} // namespace rio::gui
