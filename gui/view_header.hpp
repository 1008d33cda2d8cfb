// The strip above a centre view (plan, compare, manual): what the view shows, room for a
// few buttons, and a × that asks to close it. Where the buttons do not fit beside the text
// they go to a second row: a header never makes the window wider (issue 46).
#pragma once

#include <QWidget>

class QHBoxLayout;
class QLabel;
class QVBoxLayout;
class QToolButton;

namespace rio::gui {

class ViewHeader : public QWidget {
    Q_OBJECT
public:
    // `close_name` is the × button's accessible name and tooltip ("Close plan").
    explicit ViewHeader(const QString& close_name, QWidget* parent = nullptr);

    // Plain text, never rich text; the tooltip has it whole, and `detail` on a line below.
    void set_text(const QString& text, const QString& detail = {});
    QString text() const;
    // Buttons that go before the text (the manual's Back and Forward).
    void add_leading(QWidget* widget);
    // Buttons that go after the text, before the × (the plan's decisions).
    void add_trailing(QWidget* widget);
    QToolButton* close_button() const { return close_; }
    bool buttons_below() const { return below_; }

    // The text's least width, the leading buttons and the ×: the trailing buttons fit below.
    QSize minimumSizeHint() const override;

signals:
    void close_clicked();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void show_text();     // cut in the middle to the room there is, whole in the tooltip
    void place_buttons(); // beside the text where they fit with its least width, else below

    QVBoxLayout* rows_;
    QHBoxLayout* row_;
    QWidget* trailing_; // the buttons after the text, in a row of their own
    QHBoxLayout* trailing_row_;
    bool below_ = false;
    QLabel* text_;
    QString full_;
    QToolButton* close_;
};

} // namespace rio::gui
