#include "gui/markdown_document.hpp"

#include <QFontMetricsF>
#include <QPalette>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextList>
#include <QTextTable>
#include <QtGlobal>
#include <algorithm>
#include <optional>
#include <utility>

namespace rio::gui {
namespace {

QString qstring(const std::string& text) {
    return QString::fromStdString(text);
}

QColor mix(const QColor& from, const QColor& to, qreal amount) {
    auto channel = [amount](int a, int b) { return qRound(a + (b - a) * amount); };
    return QColor(channel(from.red(), to.red()), channel(from.green(), to.green()),
                  channel(from.blue(), to.blue()));
}

// Span text goes into one block: a newline there would split it.
QString inline_text(const std::string& text) {
    QString out = qstring(text);
    out.replace(QLatin1Char('\r'), QLatin1Char(' ')).replace(QLatin1Char('\n'), QLatin1Char(' '));
    return out;
}

constexpr char16_t word_joiner = u'\u2060';

// A word joiner between two characters of a token (no break either side, UAX #14), none
// beside a space: the text still wraps between words, never inside one.
QString joined(const QString& text) {
    QString out;
    out.reserve(text.size() * 2);
    for (qsizetype i = 0; i < text.size(); ++i) {
        out += text[i];
        if (i + 1 < text.size() && !text[i].isSpace() && !text[i + 1].isSpace() &&
            !text[i].isHighSurrogate())
            out += QChar(word_joiner);
    }
    return out;
}

Qt::Alignment alignment(md::Align align) {
    switch (align) {
    case md::Align::center:
        return Qt::AlignHCenter;
    case md::Align::right:
        return Qt::AlignRight;
    case md::Align::none:
    case md::Align::left:
        break;
    }
    return Qt::AlignLeft;
}

// Heading sizes relative to the prose, GitHub's proportions.
qreal heading_scale(int level) {
    static constexpr qreal scales[] = {1.75, 1.45, 1.2, 1.05, 1.0, 0.95};
    return scales[std::clamp(level, 1, 6) - 1];
}

// Where the blocks being painted sit: indent levels inside the current frame (list
// nesting), how deep in lists and quotes, and whether list items are tight.
struct Context {
    int indent = 0;
    int list_depth = 0;
    bool tight = false;
    bool quoted = false;
};

// One list being painted. Qt 6.4's QTextListFormat cannot start at another number than 1,
// and a task list has no bullets: those lists keep the QTextList (grouping, indent) with no
// drawn marker and write their marker ("3. ", "☐ ") as text hanging in the margin.
struct ListState {
    QTextListFormat format;
    QTextList* list = nullptr; // made by the first item's block
};

struct PendingItem {
    ListState* list = nullptr;
    QString marker; // written before the item's text; empty when Qt draws the marker
};

class Painter {
public:
    Painter(QTextDocument& document, const MarkdownLook& look)
        : document_(document), look_(look), cursor_(&document),
          em_(QFontMetricsF(look.prose).height()) {
        document_.clear();
        // Nobody undoes a rendering; recording each insertion would only cost time and memory.
        document_.setUndoRedoEnabled(false);
        document_.setDefaultFont(look_.prose);
        document_.setDocumentMargin(look_.margin);
        document_.setIndentWidth(qRound(em_ * 1.6));
        cursor_ = QTextCursor(&document_);
    }

    // Between the two, the layout hears of nothing: it takes what was painted in one go.
    void begin() { cursor_.beginEditBlock(); }
    void end() { cursor_.endEditBlock(); }
    void top_block(const md::Block& b) { block(b, Context{}); }

    int characters() const { return document_.characterCount(); }

private:
    void blocks(const std::vector<md::Block>& children, const Context& context) {
        for (const md::Block& child : children)
            block(child, context);
    }

    void block(const md::Block& b, const Context& context) {
        switch (b.kind) {
        case md::BlockKind::document:
        case md::BlockKind::item: // outside a list: its content
        case md::BlockKind::table_row:
            blocks(b.children, context);
            break;
        case md::BlockKind::heading:
            heading(b, context);
            break;
        case md::BlockKind::paragraph:
        case md::BlockKind::table_cell:
            paragraph(b, context);
            break;
        case md::BlockKind::code:
        case md::BlockKind::html: // shown as text, never interpreted
            code(b.text, context);
            break;
        case md::BlockKind::quote:
            quote(b, context);
            break;
        case md::BlockKind::list:
            list(b, context);
            break;
        case md::BlockKind::table:
            table(b, context);
            break;
        case md::BlockKind::rule:
            rule(context);
            break;
        }
    }

    QTextCharFormat prose_format(const Context& context) const {
        QTextCharFormat format;
        format.setFont(look_.prose);
        if (context.quoted) format.setForeground(look_.muted);
        return format;
    }

    QTextBlockFormat prose_block(const Context& context, qreal bottom) const {
        QTextBlockFormat format;
        format.setIndent(context.indent);
        format.setLineHeight(look_.line_height, QTextBlockFormat::ProportionalHeight);
        format.setTopMargin(0);
        format.setBottomMargin(bottom);
        return format;
    }

    qreal paragraph_gap(const Context& context) const {
        return context.list_depth > 0 && context.tight ? em_ * 0.2 : em_ * 0.65;
    }

    void heading(const md::Block& b, const Context& context) {
        QTextBlockFormat format = prose_block(context, em_ * 0.4);
        format.setHeadingLevel(b.level);
        format.setTopMargin(at_start_ ? 0 : em_ * (b.level <= 2 ? 1.1 : 0.8));
        format.setLineHeight(120, QTextBlockFormat::ProportionalHeight);
        QTextCharFormat chars = prose_format(context);
        QFont font = look_.prose;
        font.setPointSizeF(look_.prose.pointSizeF() * heading_scale(b.level));
        font.setWeight(b.level <= 4 ? QFont::Bold : QFont::DemiBold);
        chars.setFont(font);
        if (b.level == 6) chars.setForeground(look_.muted);
        if (!b.anchor.empty()) {
            chars.setAnchor(true);
            chars.setAnchorNames({qstring(b.anchor)});
        }
        begin_block(format, chars);
        spans(cursor_, b.spans, chars);
    }

    void paragraph(const md::Block& b, const Context& context) {
        const QTextCharFormat chars = prose_format(context);
        begin_block(prose_block(context, paragraph_gap(context)), chars);
        spans(cursor_, b.spans, chars);
    }

    void code(const std::string& text, const Context& context) {
        QTextFrameFormat frame;
        frame.setBackground(look_.code_background);
        frame.setBorder(1);
        frame.setBorderBrush(look_.border);
        frame.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
        frame.setPadding(em_ * 0.6);
        frame.setTopMargin(em_ * 0.15);
        frame.setBottomMargin(em_ * 0.75);
        frame.setLeftMargin(document_.indentWidth() * context.indent);
        begin_frame(frame, context);

        // A long line wraps inside the block. Kept whole, it would widen the document, and
        // the whole page — prose too — would scroll sideways in a narrow view.
        QTextBlockFormat lines;
        lines.setLineHeight(118, QTextBlockFormat::ProportionalHeight);
        QTextCharFormat chars;
        chars.setFont(look_.code);
        QString body = qstring(text);
        if (body.endsWith(QLatin1Char('\n'))) body.chop(1);
        for (const QString& line : body.split(QLatin1Char('\n'))) {
            begin_block(lines, chars);
            QString shown = line;
            if (shown.endsWith(QLatin1Char('\r'))) shown.chop(1);
            cursor_.insertText(shown, chars);
        }
        end_frame();
    }

    void quote(const md::Block& b, const Context& context) {
        QTextFrameFormat frame;
        frame.setBackground(look_.quote_background);
        frame.setBorder(0);
        frame.setLeftMargin(document_.indentWidth() * context.indent);
        frame.setPadding(em_ * 0.5);
        frame.setLeftMargin(frame.leftMargin() + em_ * 0.1);
        frame.setBottomMargin(em_ * 0.7);
        begin_frame(frame, context);
        Context inner = context;
        inner.indent = 0; // the frame carries the outer indent
        inner.quoted = true;
        inner.list_depth = 0;
        blocks(b.children, inner);
        trim_last_gap();
        end_frame();
    }

    void list(const md::Block& b, const Context& context) {
        const bool tasks =
            !b.children.empty() && std::all_of(b.children.begin(), b.children.end(),
                                               [](const md::Block& item) { return item.task; });
        flush_pending_item(context); // a list that opens an item: the item's marker first
        bool numbers_as_text = false;
        ListState state;
        state.format.setIndent(context.indent + 1);
        if (b.ordered) {
#if QT_VERSION >= QT_VERSION_CHECK(6, 6, 0)
            state.format.setStart(static_cast<int>(b.start));
#else
            numbers_as_text = b.start != 1;
#endif
            state.format.setStyle(numbers_as_text ? QTextListFormat::ListStyleUndefined
                                                  : QTextListFormat::ListDecimal);
        } else {
            static constexpr QTextListFormat::Style bullets[] = {QTextListFormat::ListDisc,
                                                                 QTextListFormat::ListCircle,
                                                                 QTextListFormat::ListSquare};
            state.format.setStyle(tasks ? QTextListFormat::ListStyleUndefined
                                        : bullets[context.list_depth % 3]);
        }

        Context inner = context;
        inner.indent = context.indent + 1;
        inner.list_depth = context.list_depth + 1;
        inner.tight = b.tight;
        unsigned number = b.start;
        for (const md::Block& item : b.children) {
            QString marker;
            if (numbers_as_text) marker = QString::number(number) + QStringLiteral(". ");
            if (item.task) marker += *item.task ? QStringLiteral("☑ ") : QStringLiteral("☐ ");
            ++number;
            pending_ = PendingItem{&state, marker};
            blocks(item.children, inner);
            if (pending_)
                begin_block(prose_block(inner, paragraph_gap(inner)),
                            prose_format(inner)); // an empty item
        }
        // The list ends with a paragraph's gap, unless it sits in a tight list.
        if (context.list_depth == 0 || !context.tight) ensure_gap(em_ * 0.65);
    }

    void table(const md::Block& b, const Context& context) {
        const int rows = static_cast<int>(b.children.size());
        int columns = static_cast<int>(b.aligns.size());
        for (const md::Block& row : b.children)
            columns = std::max(columns, static_cast<int>(row.children.size()));
        if (rows == 0 || columns == 0) return;

        QTextTableFormat format;
        format.setHeaderRowCount(1);
        format.setBorder(1);
        format.setBorderBrush(look_.border);
        format.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
        format.setBorderCollapse(true);
        format.setCellSpacing(0);
        format.setCellPadding(em_ * 0.35);
        format.setTopMargin(em_ * 0.15);
        format.setBottomMargin(em_ * 0.75);
        format.setLeftMargin(document_.indentWidth() * context.indent);
        format.setAlignment(Qt::AlignLeft);
        flush_pending_item(context);
        make_fresh();
        collapse_fresh();
        QTextTable* table = cursor_.insertTable(rows, columns, format);

        for (int r = 0; r < rows; ++r) {
            const md::Block& row = b.children[static_cast<std::size_t>(r)];
            for (int c = 0; c < columns; ++c) {
                QTextTableCell cell = table->cellAt(r, c);
                QTextCharFormat chars = prose_format(context);
                if (r == 0) chars.setFontWeight(QFont::Bold);
                QTextCursor at = cell.firstCursorPosition();
                QTextBlockFormat block;
                const auto column = static_cast<std::size_t>(c);
                block.setAlignment(column < b.aligns.size() ? alignment(b.aligns[column])
                                                            : Qt::AlignLeft);
                block.setLineHeight(125, QTextBlockFormat::ProportionalHeight);
                at.setBlockFormat(block);
                at.setBlockCharFormat(chars);
                // The cell's format is its first block's char format: tinted after that is
                // set, or the tint is lost.
                if (r == 0) {
                    QTextCharFormat header = cell.format();
                    header.setBackground(look_.header_background);
                    cell.setFormat(header);
                }
                if (column < row.children.size()) spans(at, row.children[column].spans, chars);
            }
        }
        leave_object();
    }

    void rule(const Context& context) {
        QTextBlockFormat format;
        format.setIndent(context.indent);
        format.setTopMargin(em_ * 0.5);
        format.setBottomMargin(em_ * 0.9);
        format.setProperty(QTextFormat::BlockTrailingHorizontalRulerWidth,
                           QTextLength(QTextLength::PercentageLength, 100));
        begin_block(format, prose_format(context));
    }

    void spans(QTextCursor& at, const std::vector<md::Span>& list, const QTextCharFormat& base) {
        for (const md::Span& span : list) {
            QTextCharFormat format = base;
            switch (span.kind) {
            case md::SpanKind::text:
                at.insertText(inline_text(span.text), base);
                break;
            case md::SpanKind::code: {
                QFont code = look_.code;
                code.setPointSizeF(base.font().pointSizeF() * look_.code.pointSizeF() /
                                   look_.prose.pointSizeF());
                code.setWeight(base.font().weight());
                format.setFont(code);
                format.setBackground(look_.inline_background);
                at.insertText(look_.unbreakable_inline_code ? joined(inline_text(span.text))
                                                            : inline_text(span.text),
                              format);
                break;
            }
            case md::SpanKind::emphasis:
                format.setFontItalic(true);
                spans(at, span.children, format);
                break;
            case md::SpanKind::strong:
                format.setFontWeight(QFont::Bold);
                spans(at, span.children, format);
                break;
            case md::SpanKind::strike:
                format.setFontStrikeOut(true);
                spans(at, span.children, format);
                break;
            case md::SpanKind::link:
                format.setAnchor(true);
                format.setAnchorHref(qstring(span.href));
                format.setForeground(look_.link);
                format.setFontUnderline(true);
                format.setToolTip(qstring(span.title.empty() ? span.href : span.title));
                spans(at, span.children, format);
                break;
            case md::SpanKind::image: // the alt text stands in: views never fetch files
                format.setFontItalic(true);
                format.setForeground(look_.muted);
                if (span.children.empty())
                    at.insertText(inline_text(span.href), format);
                else
                    spans(at, span.children, format);
                break;
            case md::SpanKind::soft_break:
                at.insertText(QStringLiteral(" "), base);
                break;
            case md::SpanKind::hard_break:
                at.insertText(QString(QChar::LineSeparator), base);
                break;
            }
        }
    }

    // Starts a block: the fresh one the cursor is in, else a new one. The first block of a
    // list item joins its list and gets the item's text marker.
    void begin_block(QTextBlockFormat format, const QTextCharFormat& chars) {
        if (at_start_) format.setTopMargin(0);
        at_start_ = false;
        std::optional<PendingItem> item = std::exchange(pending_, std::nullopt);
        if (item) {
            format.setIndent(0); // the list's own indent places it
            if (!item->marker.isEmpty())
                format.setTextIndent(-QFontMetricsF(chars.font()).horizontalAdvance(item->marker));
        }
        if (fresh_) {
            cursor_.setBlockFormat(format);
            cursor_.setBlockCharFormat(chars);
            fresh_ = false;
        } else {
            cursor_.insertBlock(format, chars);
        }
        if (!item) return;
        if (!item->list->list)
            item->list->list = cursor_.createList(item->list->format);
        else
            item->list->list->add(cursor_.block());
        if (!item->marker.isEmpty()) {
            QTextCharFormat marker = chars;
            marker.setForeground(look_.muted);
            cursor_.insertText(item->marker, marker);
        }
    }

    // An item that starts with a code block, quote, table or list: its marker goes on a
    // line of its own first.
    void flush_pending_item(const Context& context) {
        if (pending_) begin_block(prose_block(context, em_ * 0.2), prose_format(context));
    }

    // The cursor in an empty block that nothing uses yet, where a frame or table goes.
    void make_fresh() {
        if (fresh_) return;
        QTextBlockFormat plain;
        cursor_.insertBlock(plain, QTextCharFormat());
        fresh_ = true;
    }

    // A frame or table goes after the block the cursor is in, and that block is empty: it
    // would show as a blank line above the frame. It keeps no height; the margins around the
    // frame make the gap.
    void collapse_fresh() {
        QTextBlockFormat none;
        none.setLineHeight(0, QTextBlockFormat::FixedHeight);
        none.setTopMargin(0);
        none.setBottomMargin(0);
        cursor_.setBlockFormat(none);
        QTextCharFormat tiny;
        tiny.setFontPointSize(1);
        cursor_.setBlockCharFormat(tiny);
    }

    void begin_frame(const QTextFrameFormat& format, const Context& context) {
        flush_pending_item(context);
        make_fresh();
        collapse_fresh();
        at_start_ = false;
        cursor_.insertFrame(format);
        fresh_ = true; // the frame's own first block
    }

    void end_frame() {
        leave_object();
    }

    // After a frame or table: the cursor goes to the empty block that follows it.
    void leave_object() {
        cursor_ = cursor_.currentFrame()->parentFrame()
                      ? cursor_.currentFrame()->parentFrame()->lastCursorPosition()
                      : document_.rootFrame()->lastCursorPosition();
        fresh_ = true;
    }

    // The block just painted keeps at least `gap` below it (a list ending).
    void ensure_gap(qreal gap) {
        if (fresh_) return; // a frame ended it, with its own margin
        QTextBlockFormat format = cursor_.blockFormat();
        if (format.bottomMargin() < gap) {
            format.setBottomMargin(gap);
            cursor_.setBlockFormat(format);
        }
    }

    // Inside a tinted frame the last block's gap would only add empty tint.
    void trim_last_gap() {
        if (fresh_) return;
        QTextBlockFormat format = cursor_.blockFormat();
        format.setBottomMargin(0);
        cursor_.setBlockFormat(format);
    }

    QTextDocument& document_;
    const MarkdownLook look_;
    QTextCursor cursor_;
    qreal em_;
    bool fresh_ = true;    // the cursor's block is empty and unused: the next block takes it
    bool at_start_ = true; // nothing painted yet: no top margin
    std::optional<PendingItem> pending_;
};

} // namespace

QString without_joiners(QString text) {
    return text.remove(QChar(word_joiner));
}

MarkdownLook markdown_look(const QPalette& palette, const QFont& ui_font) {
    MarkdownLook look;
    look.prose = ui_font;
    look.prose.setPointSizeF(std::max(ui_font.pointSizeF(), 10.0) + 1.0);
    look.code = QFont(QStringLiteral("monospace"));
    look.code.setStyleHint(QFont::Monospace);
    look.code.setFixedPitch(true);
    look.code.setPointSizeF(look.prose.pointSizeF() * 0.9);
    colour_look(look, palette);
    return look;
}

void colour_look(MarkdownLook& look, const QPalette& palette) {
    const QColor base = palette.color(QPalette::Base);
    look.text = palette.color(QPalette::Text);
    look.muted = mix(look.text, base, 0.4);
    look.link = palette.color(QPalette::Link);
    look.code_background = mix(base, look.text, 0.045);
    look.inline_background = mix(base, look.text, 0.08);
    look.quote_background = mix(base, look.link, 0.06);
    look.border = mix(base, look.text, 0.18);
    look.header_background = mix(base, look.text, 0.06);
}

struct MarkdownPainter::State {
    md::Block document;
    Painter painter;
    std::size_t next = 0; // the first top-level block not painted yet
};

MarkdownPainter::MarkdownPainter(QTextDocument& into, md::Block document, const MarkdownLook& look)
    : state_(new State{std::move(document), Painter(into, look)}) {}

MarkdownPainter::~MarkdownPainter() = default;

bool MarkdownPainter::paint_some(int characters) {
    const std::vector<md::Block>& top = state_->document.children;
    Painter& painter = state_->painter;
    const int until = painter.characters() + characters;
    painter.begin();
    while (state_->next < top.size() && painter.characters() < until)
        painter.top_block(top[state_->next++]);
    painter.end();
    return done();
}

bool MarkdownPainter::done() const {
    return state_->next >= state_->document.children.size();
}

void paint_markdown(QTextDocument& into, const md::Block& document, const MarkdownLook& look) {
    Painter painter(into, look);
    painter.begin();
    for (const md::Block& b : document.children)
        painter.top_block(b);
    painter.end();
}

} // namespace rio::gui
