// A finished chat message, rendered as Markdown by the shared renderer with inactive links.
// It is exactly as tall as its text and has no vertical scroll bar of its own: the chat's
// list does the scrolling.
#pragma once

#include "gui/markdown_view.hpp"

namespace rio::gui {

class MarkdownBubble : public MarkdownView {
    Q_OBJECT
public:
    explicit MarkdownBubble(const QString& markdown, QWidget* parent = nullptr);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;
    // Wheel turns scroll the chat, not this (it never needs to scroll vertically).
    void wheelEvent(QWheelEvent* event) override;
    // A copied command pastes as typed: without the joiners that keep inline code whole.
    QMimeData* createMimeDataFromSelection() const override;

private:
    int fitted_height() const;
    void fit();
};

} // namespace rio::gui
