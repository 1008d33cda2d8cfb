// Light and dark: the theme a person picks (View ▸ Theme), the application palette it puts
// in place, and the colours rio paints with beyond the palette (code, diffs, bars, the chat),
// chosen by how dark the application's palette is (decision 0035). Nothing here keeps state:
// the application palette is the one place the theme lives, so "System" simply leaves the
// desktop's palette in place, and a desktop that switches its scheme is followed too.
#pragma once

#include <QColor>
#include <QString>
#include <functional>
#include <optional>

class QPalette;
class QWidget;

namespace rio::gui {

enum class Theme { system, light, dark };

QString theme_key(Theme theme); // "system", "light", "dark": how settings store it
std::optional<Theme> theme_from_key(const QString& key);

// Puts `theme` in place for the whole application: Fusion with rio's light or dark palette,
// or for `system` the style `system_style` (the one Qt chose at start) with the desktop's
// own palette. Every widget hears it as a palette change.
void apply_theme(Theme theme, const QString& system_style);

// A palette is dark when its window colour is (Qt 6.4 has no colour-scheme hint).
bool is_dark(const QPalette& palette);

struct ThemeColours {
    bool dark = false;
    // Code
    QColor paper, text;
    QColor margin_background, margin_text;
    QColor caret, caret_line, selection, matched_brace, indent_guide;
    // Differences: the compare view's rows and a revised plan's lines
    QColor removed, added, changed, padding, changed_words;
    // Bars that wait for the person (approval, trust) and the core-lost notice
    QColor attention_background, attention_border, attention_text;
    QColor alarm_background, alarm_border, alarm_text;
    // The chat
    QColor user_background, user_text, muted_text, error_text;
    QColor added_text; // added lines counted, a test that went well
};

// The colours for the application's palette as it is now.
ThemeColours theme_colours();

// A colour a light theme's code style uses, as the dark theme shows it: the same hue,
// lightness turned around so it reads on a dark paper. `background`: a style's paper.
QColor dark_variant(const QColor& light, bool background);

// Runs `apply` now and again whenever the application's palette changes, for as long as
// `widget` lives: what a widget with colours of its own calls once.
void follow_theme(QWidget* widget, std::function<void()> apply);

} // namespace rio::gui
