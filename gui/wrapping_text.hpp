// Read-only plain text that wraps anywhere a line is too long for its width: a command or a
// path with no spaces in it makes a label as wide as itself, and a label that wide made the
// chat, and then the window, wider than the screen (issue 46). What is copied from it is the
// text itself, not a display copy with break marks in it.
#pragma once

#include <QTextEdit>

namespace rio::gui {

class WrappingText : public QTextEdit {
    Q_OBJECT
public:
    explicit WrappingText(QWidget* parent = nullptr);

    void setText(const QString& text);
    QString text() const { return toPlainText(); }

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;
};

} // namespace rio::gui
