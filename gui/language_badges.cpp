#include "gui/language_badges.hpp"

#include <QColor>
#include <QFont>
#include <QFontMetricsF>
#include <QHash>
#include <QPainter>
#include <QPixmap>
#include <algorithm>
#include <array>

namespace rio::gui {
namespace {

struct Badge {
    QString label;
    QColor colour;
};

// Colours as the languages' own marks use them (GitHub's linguist table), darkened where
// white text on them would not read.
const QHash<QString, Badge>& badges_by_name() {
    static const QHash<QString, Badge> badges = [] {
        const Badge c{QStringLiteral("C"), QColor(0x55, 0x5f, 0xa8)};
        const Badge header{QStringLiteral("H"), QColor(0x7a, 0x4f, 0xa8)};
        const Badge cpp{QStringLiteral("C++"), QColor(0x00, 0x59, 0x9c)};
        const Badge python{QStringLiteral("PY"), QColor(0x35, 0x72, 0xa5)};
        const Badge js{QStringLiteral("JS"), QColor(0xb0, 0x8f, 0x00)};
        const Badge ts{QStringLiteral("TS"), QColor(0x31, 0x78, 0xc6)};
        const Badge shell{QStringLiteral("SH"), QColor(0x3e, 0x7a, 0x2a)};
        const Badge markdown{QStringLiteral("MD"), QColor(0x48, 0x5a, 0x70)};
        const Badge json{QStringLiteral("{}"), QColor(0x8a, 0x6d, 0x00)};
        const Badge yaml{QStringLiteral("YML"), QColor(0xa0, 0x30, 0x30)};
        const Badge toml{QStringLiteral("TML"), QColor(0x7a, 0x4a, 0x2a)};
        const Badge html{QStringLiteral("<>"), QColor(0xc0, 0x3f, 0x1f)};
        const Badge css{QStringLiteral("CSS"), QColor(0x56, 0x3d, 0x7c)};
        const Badge rust{QStringLiteral("RS"), QColor(0xa0, 0x3a, 0x0e)};
        const Badge go{QStringLiteral("GO"), QColor(0x00, 0x7d, 0x9c)};
        const Badge java{QStringLiteral("JV"), QColor(0xa0, 0x60, 0x10)};
        const Badge ruby{QStringLiteral("RB"), QColor(0xa0, 0x17, 0x15)};
        const Badge build{QStringLiteral("MK"), QColor(0x4a, 0x4a, 0x4a)};
        const Badge cmake{QStringLiteral("CM"), QColor(0x06, 0x4f, 0x8c)};
        QHash<QString, Badge> by;
        const auto claim = [&by](const Badge& badge, std::initializer_list<const char*> names) {
            for (const char* name : names)
                by.insert(QString::fromLatin1(name), badge);
        };
        claim(c, {".c"});
        claim(header, {".h"});
        claim(cpp, {".cpp", ".cc", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".ipp", ".inl"});
        claim(python, {".py", ".pyi", ".pyw"});
        claim(js, {".js", ".mjs", ".cjs", ".jsx"});
        claim(ts, {".ts", ".mts", ".cts", ".tsx"});
        claim(shell, {".sh", ".bash", ".zsh"});
        claim(markdown, {".md", ".markdown"});
        claim(json, {".json", ".jsonl"});
        claim(yaml, {".yaml", ".yml"});
        claim(toml, {".toml"});
        claim(html, {".html", ".htm", ".xml", ".svg"});
        claim(css, {".css", ".scss"});
        claim(rust, {".rs"});
        claim(go, {".go"});
        claim(java, {".java", ".kt"});
        claim(ruby, {".rb"});
        claim(build, {"makefile", "gnumakefile", ".mk"});
        claim(cmake, {"cmakelists.txt", ".cmake"});
        return by;
    }();
    return badges;
}

QPixmap draw(const Badge& badge, int side) {
    QPixmap pixmap(side, side);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    const QRectF tile = QRectF(0, 0, side, side).adjusted(0.5, 1.5, -0.5, -1.5);
    painter.setPen(Qt::NoPen);
    painter.setBrush(badge.colour);
    painter.drawRoundedRect(tile, side / 6.0, side / 6.0);
    // The largest bold size at which the label fits the tile with a pixel to spare each side.
    QFont font;
    font.setBold(true);
    font.setPixelSize(std::max(5, side * 9 / 16));
    while (font.pixelSize() > 5 &&
           QFontMetricsF(font).horizontalAdvance(badge.label) > tile.width() - 2)
        font.setPixelSize(font.pixelSize() - 1);
    painter.setFont(font);
    painter.setPen(Qt::white);
    painter.drawText(tile, Qt::AlignCenter, badge.label);
    return pixmap;
}

} // namespace

QString kind_of_name(const QString& name) {
    const QString lower = name.toLower();
    if (badges_by_name().contains(lower)) return lower;
    const qsizetype dot = lower.lastIndexOf(QLatin1Char('.'));
    return dot > 0 ? lower.mid(dot) : lower;
}

QIcon language_badge(const QString& kind) {
    const auto it = badges_by_name().constFind(kind);
    if (it == badges_by_name().constEnd()) return {};
    QIcon icon;
    for (const int side : std::array{16, 20, 24, 32, 48, 64})
        icon.addPixmap(draw(*it, side));
    return icon;
}

} // namespace rio::gui
