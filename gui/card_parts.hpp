// What the chat's cards share (a command's card, an edit's card): the row a card folds and
// unfolds by, a small text button, and the text it unfolds to. Each card lays them out and
// says what they show.
#pragma once

#include <QPlainTextEdit>
#include <QPushButton>
#include <QString>

class QToolButton;

namespace rio::gui {

struct ThemeColours;

// Flat and checkable, its label cut to the room it has behind ▸ (folded) or ▾ (unfolded); a
// click, Space or Enter toggles it.
class CardToggle : public QPushButton {
public:
    // `narrowest`: the text the toggle keeps room for however narrow the chat ("▸ mm…m").
    explicit CardToggle(const QString& narrowest, QWidget* parent = nullptr);

    void set_label(const QString& label, Qt::TextElideMode elide);
    void show_label(); // again, after the font changed
    void paint(const ThemeColours& colours);

protected:
    void resizeEvent(QResizeEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    QString label_;
    Qt::TextElideMode elide_ = Qt::ElideRight;
};

// A small text button, framed when hovered, so a card's row fits the chat's width.
QToolButton* card_button(const QString& text, const QString& tip);

// What a card unfolds to — a command's output, a change's diff: read-only, in the editor's
// font, not wrapped, as tall as its lines up to a limit and scrolled past it. A wheel turn
// it has no use for scrolls the chat instead.
class CardText : public QPlainTextEdit {
public:
    explicit CardText(const QString& accessible_name, QWidget* parent = nullptr);

    // Sizes it to the text it holds: every line up to `most`, then a scroll bar.
    void fit(int most);

protected:
    void wheelEvent(QWheelEvent* event) override;
};

} // namespace rio::gui
