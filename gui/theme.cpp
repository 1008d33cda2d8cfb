#include "gui/theme.hpp"

#include <QApplication>
#include <QEvent>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>
#include <QWidget>
#include <algorithm>

namespace rio::gui {
namespace {

QPalette dark_palette() {
    const QRgb text = 0xd4d4d4;
    const std::pair<QPalette::ColorRole, QRgb> active[] = {
        {QPalette::Window, 0x252526},
        {QPalette::WindowText, 0xcccccc},
        {QPalette::Base, 0x1e1e1e},
        {QPalette::AlternateBase, 0x2a2a2b},
        {QPalette::Text, text},
        {QPalette::PlaceholderText, 0x8b8b8b},
        {QPalette::ToolTipBase, 0x2d2d30},
        {QPalette::ToolTipText, text},
        {QPalette::Button, 0x333337},
        {QPalette::ButtonText, 0xcccccc},
        {QPalette::BrightText, 0xff6b6b},
        {QPalette::Light, 0x454548},
        {QPalette::Midlight, 0x3a3a3d},
        // Mid is also muted text in rio's style sheets (the model's thinking): it must read.
        {QPalette::Mid, 0x8a8a8a},
        {QPalette::Dark, 0x1a1a1a},
        {QPalette::Shadow, 0x0a0a0a},
        {QPalette::Highlight, 0x264f78},
        {QPalette::HighlightedText, 0xffffff},
        {QPalette::Link, 0x4daafc},
        {QPalette::LinkVisited, 0xc586c0},
    };
    QPalette p(QColor(0x252526));
    for (const auto& [role, rgb] : active)
        p.setColor(role, QColor(rgb));
    for (QPalette::ColorRole role :
         {QPalette::WindowText, QPalette::Text, QPalette::ButtonText, QPalette::PlaceholderText})
        p.setColor(QPalette::Disabled, role, QColor(0x6e6e6e));
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x3a3a3d));
    return p;
}

ThemeColours light_colours(const QPalette& palette) {
    ThemeColours c;
    c.paper = palette.color(QPalette::Base);
    c.text = palette.color(QPalette::Text);
    c.margin_background = QColor(0xf3, 0xf3, 0xf3);
    c.margin_text = QColor(0x8c, 0x8c, 0x8c);
    c.caret = QColor(0x00, 0x00, 0x00);
    c.caret_line = QColor(0xf4, 0xf7, 0xfc);
    c.selection = QColor(0xad, 0xd6, 0xff);
    c.matched_brace = QColor(0xd8, 0xe8, 0xd0);
    c.indent_guide = QColor(0xc0, 0xc0, 0xc0);
    c.removed = QColor(0xfb, 0xe0, 0xe0);
    c.added = QColor(0xdf, 0xf5, 0xdf);
    c.changed = QColor(0xfd, 0xf3, 0xd0);
    c.padding = QColor(0xee, 0xee, 0xee);
    c.changed_words = QColor(0xff, 0xd3, 0x3d);
    c.attention_background = QColor(0xff, 0xf8, 0xe1);
    c.attention_border = QColor(0xf0, 0xd4, 0x8a);
    c.attention_text = QColor(0x3c, 0x3c, 0x3c);
    c.alarm_background = QColor(0xfd, 0xec, 0xea);
    c.alarm_border = QColor(0xf5, 0xc2, 0xc0);
    c.alarm_text = QColor(0x61, 0x1a, 0x15);
    c.user_background = QColor(0xe8, 0xf0, 0xfe);
    c.user_text = QColor(0x1a, 0x1a, 0x1a);
    c.muted_text = QColor(0x5f, 0x63, 0x68);
    c.error_text = QColor(0xb3, 0x26, 0x1e);
    c.added_text = QColor(0x1e, 0x7e, 0x34);
    return c;
}

ThemeColours dark_colours(const QPalette& palette) {
    ThemeColours c;
    c.dark = true;
    c.paper = palette.color(QPalette::Base);
    c.text = palette.color(QPalette::Text);
    c.margin_background = QColor(0x25, 0x25, 0x26);
    c.margin_text = QColor(0x85, 0x85, 0x85);
    c.caret = QColor(0xae, 0xaf, 0xad);
    c.caret_line = QColor(0x2a, 0x2d, 0x2e);
    c.selection = QColor(0x26, 0x4f, 0x78);
    c.matched_brace = QColor(0x3b, 0x51, 0x4d);
    c.indent_guide = QColor(0x40, 0x40, 0x40);
    c.removed = QColor(0x4b, 0x1e, 0x1e);
    c.added = QColor(0x1e, 0x3d, 0x26);
    c.changed = QColor(0x3d, 0x37, 0x1e);
    c.padding = QColor(0x2a, 0x2a, 0x2b);
    c.changed_words = QColor(0x6b, 0x5a, 0x14);
    c.attention_background = QColor(0x3a, 0x33, 0x1f);
    c.attention_border = QColor(0x6b, 0x5a, 0x2a);
    c.attention_text = QColor(0xe6, 0xdc, 0xc0);
    c.alarm_background = QColor(0x4a, 0x1f, 0x1d);
    c.alarm_border = QColor(0x7a, 0x30, 0x2c);
    c.alarm_text = QColor(0xf6, 0xc4, 0xc0);
    c.user_background = QColor(0x26, 0x3a, 0x57);
    c.user_text = QColor(0xe3, 0xe3, 0xe3);
    c.muted_text = QColor(0x9a, 0xa0, 0xa6);
    c.error_text = QColor(0xf2, 0x8b, 0x82);
    c.added_text = QColor(0x81, 0xc9, 0x95);
    return c;
}

QPalette palette_for(Theme theme) {
    switch (theme) {
    case Theme::dark:
        return dark_palette();
    case Theme::light:
        return QApplication::style()->standardPalette();
    case Theme::system:
        break;
    }
    // An empty palette resolves to the desktop's (the platform theme's, or the style's).
    return QPalette();
}

// Hears the application's palette change, once for the whole application: Qt tells the
// application object (ApplicationPaletteChange), not every widget, and a style sheet stops
// the palette's propagation to the widgets under it. Owned by the application object.
class ThemeHub : public QObject {
    Q_OBJECT
public:
    static ThemeHub& of_application() {
        auto* hub = qApp->findChild<ThemeHub*>(QString(), Qt::FindDirectChildrenOnly);
        return hub ? *hub : *new ThemeHub;
    }

signals:
    void palette_changed();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched == qApp && event->type() == QEvent::ApplicationPaletteChange) {
            // Style sheets resolve palette(…) when they are applied: apply them again.
            for (QWidget* widget : QApplication::allWidgets())
                if (!widget->styleSheet().isEmpty()) widget->setStyleSheet(widget->styleSheet());
            emit palette_changed();
        }
        return QObject::eventFilter(watched, event);
    }

private:
    ThemeHub() : QObject(qApp) { qApp->installEventFilter(this); }
};

} // namespace

QString theme_key(Theme theme) {
    switch (theme) {
    case Theme::light:
        return QStringLiteral("light");
    case Theme::dark:
        return QStringLiteral("dark");
    case Theme::system:
        break;
    }
    return QStringLiteral("system");
}

std::optional<Theme> theme_from_key(const QString& key) {
    for (Theme theme : {Theme::system, Theme::light, Theme::dark})
        if (key == theme_key(theme)) return theme;
    return std::nullopt;
}

void apply_theme(Theme theme, const QString& system_style) {
    const QString style = theme == Theme::system ? system_style : QStringLiteral("Fusion");
    if (QApplication::style()->name().compare(style, Qt::CaseInsensitive) != 0)
        if (QStyle* made = QStyleFactory::create(style)) QApplication::setStyle(made);
    QApplication::setPalette(palette_for(theme));
}

bool is_dark(const QPalette& palette) {
    return palette.color(QPalette::Window).lightness() < 128;
}

ThemeColours theme_colours() {
    const QPalette palette = QApplication::palette();
    return is_dark(palette) ? dark_colours(palette) : light_colours(palette);
}

QColor dark_variant(const QColor& light, bool background) {
    float hue = 0, saturation = 0, lightness = 0;
    light.getHslF(&hue, &saturation, &lightness);
    // Text keeps its hue, softened, and becomes as light as it was dark; papers the reverse,
    // kept dim so text on them still reads.
    const float turned = 1.0f - lightness;
    if (background)
        return QColor::fromHslF(hue, saturation * 0.45f, std::clamp(turned, 0.12f, 0.26f));
    return QColor::fromHslF(hue, saturation * 0.7f,
                            std::clamp(turned * 0.85f + 0.1f, 0.55f, 0.86f));
}

void follow_theme(QWidget* widget, std::function<void()> apply) {
    apply();
    QObject::connect(&ThemeHub::of_application(), &ThemeHub::palette_changed, widget,
                     std::move(apply));
}

} // namespace rio::gui

#include "theme.moc"
