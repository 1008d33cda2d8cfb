// The strip above a centre view (plan, compare, manual): what the view shows, room for a
// few buttons, and a × that asks to close it.
#pragma once

#include <QWidget>

class QHBoxLayout;
class QLabel;
class QToolButton;

namespace rio::gui {

class ViewHeader : public QWidget {
    Q_OBJECT
public:
    // `close_name` is the × button's accessible name and tooltip ("Close plan").
    explicit ViewHeader(const QString& close_name, QWidget* parent = nullptr);

    void set_text(const QString& text); // plain text, never rich text
    QString text() const;
    // Buttons that go before the text (the manual's Back and Forward).
    void add_leading(QWidget* widget);
    // Buttons that go after the text, before the × (the plan's decisions).
    void add_trailing(QWidget* widget);
    QToolButton* close_button() const { return close_; }

signals:
    void close_clicked();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void show_text(); // cut in the middle to the room there is, whole in the tooltip

    QHBoxLayout* row_;
    QLabel* text_;
    QString full_;
    QToolButton* close_;
};

} // namespace rio::gui
