#include "gui/revision_document.hpp"

#include "gui/theme.hpp"

#include <QColor>
#include <QFontDatabase>
#include <QTextBlockFormat>
#include <QTextCharFormat>
#include <QTextCursor>
#include <QTextDocument>

namespace rio::gui {
namespace {

// A UTF-8 byte offset within `line` as a QString index.
int qt_index(const std::string& line, std::uint64_t byte) {
    const std::size_t end = std::min<std::size_t>(static_cast<std::size_t>(byte), line.size());
    return static_cast<int>(QString::fromUtf8(line.data(), static_cast<qsizetype>(end)).size());
}

QString prefix(client::LineMark mark) {
    switch (mark) {
    case client::LineMark::inserted:
        return QStringLiteral("+ ");
    case client::LineMark::removed:
        return QStringLiteral("− ");
    case client::LineMark::changed:
        return QStringLiteral("~ ");
    case client::LineMark::same:
        break;
    }
    return QStringLiteral("  ");
}

} // namespace

QColor revision_background(client::LineMark mark) {
    switch (mark) {
    case client::LineMark::inserted:
        return theme_colours().added;
    case client::LineMark::removed:
        return theme_colours().removed;
    case client::LineMark::changed:
        return theme_colours().changed;
    case client::LineMark::same:
        break;
    }
    return QColor();
}

QColor revision_word_background() {
    return theme_colours().changed_words;
}

void paint_revision(QTextDocument& document, const std::vector<client::MarkedLine>& marks) {
    document.clear();
    document.setDefaultFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    QTextCursor cursor(&document);
    bool first = true;
    for (const client::MarkedLine& line : marks) {
        QTextBlockFormat block;
        const QColor background = revision_background(line.mark);
        if (background.isValid()) block.setBackground(background);
        if (first)
            cursor.setBlockFormat(block);
        else
            cursor.insertBlock(block);
        first = false;
        QTextCharFormat plain;
        if (line.mark == client::LineMark::removed) plain.setFontStrikeOut(true);
        cursor.insertText(prefix(line.mark), QTextCharFormat());
        const QString text = QString::fromStdString(line.text);
        if (line.mark != client::LineMark::changed) {
            cursor.insertText(text, plain);
            continue;
        }
        // The words that are new, in a stronger shade; spans come in order.
        QTextCharFormat word = plain;
        word.setBackground(revision_word_background());
        int at = 0;
        for (const DiffSpan& span : line.added) {
            const int start = std::max(at, qt_index(line.text, span.start));
            const int end = std::max(start, qt_index(line.text, span.end));
            cursor.insertText(text.mid(at, start - at), plain);
            cursor.insertText(text.mid(start, end - start), word);
            at = end;
        }
        cursor.insertText(text.mid(at), plain);
    }
}

} // namespace rio::gui
