// The centre views: the plan view, the compare view and the manual. What they render (real
// formats in the QTextDocument, not Markdown syntax), what their keys and links do, and that
// each view's page, anchors and scroll position are its own.
#include "core/diff.hpp"
#include "gui/centre_area.hpp"
#include "gui/compare_view.hpp"
#include "gui/core_client.hpp"
#include "gui/editor_area.hpp"
#include "gui/editor_style.hpp"
#include "gui/main_window.hpp"
#include "gui/manual_link.hpp"
#include "gui/manual_pages.hpp"
#include "gui/manual_view.hpp"
#include "gui/markdown_bubble.hpp"
#include "gui/markdown_document.hpp"
#include "gui/markdown_view.hpp"
#include "gui/plan_view.hpp"
#include "gui/view_header.hpp"
#include "tests/gui/gui_support.hpp"
#include "text/markdown.hpp"

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QClipboard>
#include <QDesktopServices>
#include <QFontInfo>
#include <QFontMetricsF>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMouseEvent>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextList>
#include <QTextTable>
#include <QToolButton>
#include <Qsci/qsciscintilla.h>
#include <algorithm>
#include <cstdlib>
#include <optional>
#include <vector>

using namespace rio;
using namespace rio::gui;
using namespace rio::gui::test;

namespace {

// A plan with one of everything the renderer must turn into formatting.
const QString plan_markdown = QStringLiteral(R"md(# Add a verbose flag

The flag turns on **detailed logging** for *every* command.

## Steps

1. Parse the flag
   - in `main.cpp`
   - with CLI11
2. Thread it through

## Checklist

- [x] read the code
- [ ] write the tests

| file | change |
|---|---|
| main.cpp | add the option |
| log.cpp | honour it |

Then:

```cpp
int verbose = 0;
```

See [the manual](plan-mode.md) and [the web](https://example.com/rio).
)md");

// One window on a private core (echo provider), shown; settled means active too.
struct Session : WindowSession {
    using WindowSession::WindowSession;
    bool settle() { return WindowSession::settle() && activate(); }
    // F1, as a person presses it.
    ManualView* press_f1() {
        QWidget* focus = QApplication::focusWidget();
        QTest::keyClick(focus ? focus : &window, Qt::Key_F1);
        return window.manual();
    }
};

std::optional<QTextFragment> fragment_with(const QTextDocument& document, const QString& text) {
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it)
            if (it.fragment().text().contains(text)) return it.fragment();
    return std::nullopt;
}

QTextBlock block_with(const QTextDocument& document, const QString& text) {
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next())
        if (block.text().contains(text)) return block;
    return {};
}

std::vector<QTextFrame*> all_frames(QTextFrame* frame) {
    std::vector<QTextFrame*> frames{frame};
    for (QTextFrame* child : frame->childFrames())
        for (QTextFrame* inner : all_frames(child))
            frames.push_back(inner);
    return frames;
}

// Every link in a painted document: its href, in reading order.
QStringList link_targets(const QTextDocument& document) {
    QStringList hrefs;
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextCharFormat format = it.fragment().charFormat();
            if (format.isAnchor() && !format.anchorHref().isEmpty()) hrefs << format.anchorHref();
        }
    return hrefs;
}

// Scrolled to the heading with `anchor`: its first line at the top of the viewport, or,
// when the page ends before it can get there, scrolled to the end with the heading in sight.
// The headings the tests use are all below the first screen, so the top does not count.
bool scrolled_to(MarkdownView& view, const QString& anchor) {
    const QTextDocument& document = *view.document();
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            if (!it.fragment().charFormat().anchorNames().contains(anchor)) continue;
            QTextCursor at(view.document());
            at.setPosition(it.fragment().position());
            const int top = view.cursorRect(at).top();
            const QScrollBar* bar = view.verticalScrollBar();
            if (bar->value() == 0) return false;
            if (bar->value() == bar->maximum()) return top >= 0 && top < view.viewport()->height();
            return std::abs(top) <= 1;
        }
    return false;
}

// Stands in for the desktop's browser: QDesktopServices hands https links to it.
class UrlCatcher : public QObject {
    Q_OBJECT
public:
    QList<QUrl> opened;
public slots:
    void open(const QUrl& url) { opened << url; }
};

} // namespace

class ViewsTest : public QObject {
    Q_OBJECT
private slots:
    void plan_renders_markdown_without_syntax() {
        PlanView view;
        view.resize(500, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QString long_line = QStringLiteral("int x = 0; // ") + QString(150, QLatin1Char('x'));
        view.show_plan(QStringLiteral("Add a verbose flag"), QStringLiteral(".rio/plans/x.md"),
                       plan_markdown + QStringLiteral("\n```\n") + long_line +
                           QStringLiteral("\n```\n"));
        const QTextDocument& document = *view.body()->document();
        const QString text = document.toPlainText();
        for (const char* word :
             {"Add a verbose flag", "detailed logging", "Parse the flag", "main.cpp",
              "read the code", "honour it", "int verbose = 0;", "the manual"})
            QVERIFY2(text.contains(QLatin1String(word)), word);
        for (const char* syntax : {"**", "|---|", "|", "#", "`", "[x]", "[ ]", "](", "- "})
            QVERIFY2(!text.contains(QLatin1String(syntax)), syntax);

        const MarkdownLook& look = view.body()->look();
        // Headings: a heading level, larger and bold.
        const QTextBlock title = block_with(document, QStringLiteral("Add a verbose flag"));
        QCOMPARE(title.blockFormat().headingLevel(), 1);
        const QTextCharFormat title_format = title.begin().fragment().charFormat();
        QVERIFY(title_format.font().pointSizeF() > look.prose.pointSizeF() * 1.5);
        QVERIFY(title_format.fontWeight() >= QFont::Bold);
        QCOMPARE(block_with(document, QStringLiteral("Checklist")).blockFormat().headingLevel(), 2);

        // Bold and italic spans, the prose around them plain.
        auto bold = fragment_with(document, QStringLiteral("detailed logging"));
        QVERIFY(bold);
        QVERIFY(bold->charFormat().fontWeight() >= QFont::Bold);
        QVERIFY(bold->text().startsWith(QLatin1String("detailed logging")));
        auto before = fragment_with(document, QStringLiteral("The flag turns on"));
        QVERIFY(before);
        QVERIFY(before->charFormat().fontWeight() < QFont::DemiBold);
        auto every = fragment_with(document, QStringLiteral("every"));
        QVERIFY(every && every->charFormat().fontItalic());

        // A numbered list with a bulleted list nested one level deeper.
        const QTextBlock outer = block_with(document, QStringLiteral("Parse the flag"));
        const QTextBlock inner = block_with(document, QStringLiteral("with CLI11"));
        QVERIFY(outer.textList() && inner.textList());
        QCOMPARE(outer.textList()->format().style(), QTextListFormat::ListDecimal);
        QVERIFY(inner.textList() != outer.textList());
        QVERIFY(inner.textList()->format().indent() > outer.textList()->format().indent());
        QCOMPARE(outer.textList()->count(), 2); // "Parse the flag", "Thread it through"
        // Inline code: monospace.
        auto code_span = fragment_with(document, QStringLiteral("main.cpp"));
        QVERIFY(code_span && is_monospace(code_span->charFormat().font()));

        // A task list: boxes, checked and not, instead of "[x]" and "[ ]".
        QVERIFY(block_with(document, QStringLiteral("read the code"))
                    .text()
                    .startsWith(QStringLiteral("☑")));
        QVERIFY(block_with(document, QStringLiteral("write the tests"))
                    .text()
                    .startsWith(QStringLiteral("☐")));

        // A real table: three rows, two columns, a bold header row, borders.
        QTextTable* table = nullptr;
        for (QTextFrame* frame : all_frames(document.rootFrame()))
            if (auto* found = qobject_cast<QTextTable*>(frame)) table = found;
        QVERIFY(table);
        QCOMPARE(table->rows(), 3);
        QCOMPARE(table->columns(), 2);
        QVERIFY(table->format().border() > 0);
        QCOMPARE(table->cellAt(0, 1).firstCursorPosition().block().text(),
                 QStringLiteral("change"));
        QCOMPARE(table->cellAt(2, 0).firstCursorPosition().block().text(),
                 QStringLiteral("log.cpp"));
        QVERIFY(table->cellAt(0, 0)
                    .firstCursorPosition()
                    .block()
                    .begin()
                    .fragment()
                    .charFormat()
                    .fontWeight() >= QFont::Bold);
        QCOMPARE(table->cellAt(0, 1).format().background().color(), look.header_background);
        QCOMPARE(table->cellAt(1, 1).format().background().style(), Qt::NoBrush);

        // The code block: monospace, on a tinted frame that is not the page's background.
        const QTextBlock code = block_with(document, QStringLiteral("int verbose = 0;"));
        QVERIFY(code.isValid());
        const QFont code_font = code.begin().fragment().charFormat().font();
        QVERIFY(is_monospace(code_font));
        QCOMPARE(code_font.family(), look.code.family());
        QVERIFY(!is_monospace(look.prose)); // so the check above means something
        QTextFrame* frame = QTextCursor(code).currentFrame();
        QVERIFY(frame && frame != document.rootFrame());
        const QBrush tint = frame->frameFormat().background();
        QCOMPARE(tint.style(), Qt::SolidPattern);
        QCOMPARE(tint.color(), look.code_background);
        QVERIFY(tint.color() != view.body()->palette().color(QPalette::Base));
        // No blank line above it: the gap is the paragraph's own, less than a line.
        auto* layout = document.documentLayout();
        const qreal paragraph_bottom =
            layout->blockBoundingRect(block_with(document, QStringLiteral("Then:"))).bottom();
        const qreal gap = layout->frameBoundingRect(frame).top() - paragraph_bottom;
        QVERIFY2(gap > 0 && gap < QFontMetricsF(look.prose).height() * 1.3,
                 qPrintable(QString::number(gap)));
        // A code line longer than the view wraps inside its block; the page never scrolls
        // sideways, which would take the prose along.
        QVERIFY(text.contains(long_line));
        QCOMPARE(view.body()->horizontalScrollBar()->maximum(), 0);
        const QTextBlock long_block = block_with(document, long_line);
        QVERIFY(long_block.layout()->lineCount() > 1);

        // A link: styled as one, carrying its target.
        auto link = fragment_with(document, QStringLiteral("the manual"));
        QVERIFY(link && link->charFormat().isAnchor());
        QCOMPARE(link->charFormat().anchorHref(), QStringLiteral("plan-mode.md"));
        QVERIFY(link->charFormat().fontUnderline());
        QCOMPARE(link->charFormat().foreground().color(), look.link);
    }

    // Issue 32 item 11: inline code in a chat message wraps as one token, never inside it
    // ("--" on one line and "shout" on the next), at whatever width the chat has.
    void inline_code_in_a_chat_message_never_wraps_mid_token() {
        MarkdownBubble bubble(
            QStringLiteral("Run the greeting with `--shout` and the flag `--name=Ada`, then read "
                           "`tests/test_greet.py` to see why each of them is there."));
        QTextDocument& document = *bubble.document();
        struct Token {
            int start, end;
            QString text;
            bool split = false;
        };
        std::vector<Token> tokens; // the inline code spans, where the document has them
        qreal widest = 0;
        for (QTextBlock block = document.begin(); block.isValid(); block = block.next())
            for (auto it = block.begin(); !it.atEnd(); ++it)
                if (const QTextFragment f = it.fragment(); f.charFormat().fontFixedPitch()) {
                    tokens.push_back({f.position(), f.position() + f.length(),
                                      without_joiners(f.text()), false});
                    widest = std::max(
                        widest, QFontMetricsF(f.charFormat().font()).horizontalAdvance(f.text()));
                }
        QCOMPARE(tokens.size(), std::size_t{3});
        QCOMPARE(tokens[0].text, QStringLiteral("--shout"));
        // Every width where each token fits on a line: no line starts inside one.
        QStringList broken; // each token split, at the first width that splits it
        for (int width =
                 static_cast<int>(widest) + 2 * static_cast<int>(document.documentMargin()) + 8;
             width <= 700; ++width) {
            document.setTextWidth(width);
            for (QTextBlock block = document.begin(); block.isValid(); block = block.next()) {
                const QTextLayout* layout = block.layout();
                for (int i = 1; i < layout->lineCount(); ++i) {
                    const int at = block.position() + layout->lineAt(i).textStart();
                    for (Token& token : tokens)
                        if (at > token.start && at < token.end && !token.split) {
                            token.split = true;
                            broken << QStringLiteral("%1 at %2 px").arg(token.text).arg(width);
                        }
                }
            }
        }
        QVERIFY2(broken.isEmpty(), qPrintable(broken.join(QStringLiteral("; "))));
        // Between words it still wraps, and what is copied is what was written.
        document.setTextWidth(static_cast<int>(widest) + 40);
        QVERIFY(document.begin().layout()->lineCount() > 3);
        bubble.selectAll();
        bubble.copy();
        QCOMPARE(QGuiApplication::clipboard()->text(),
                 QStringLiteral("Run the greeting with --shout and the flag --name=Ada, then read "
                                "tests/test_greet.py to see why each of them is there."));
    }

    void plan_view_is_read_only_and_copyable() {
        PlanView view;
        view.resize(900, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.show_plan(QStringLiteral("Add a verbose flag"), QString(), plan_markdown);
        MarkdownView* body = view.body();
        const QString text = body->document()->toPlainText();
        QVERIFY(body->isReadOnly());
        const Qt::TextInteractionFlags flags = body->textInteractionFlags();
        QVERIFY(flags.testFlag(Qt::TextSelectableByMouse));
        QVERIFY(flags.testFlag(Qt::TextSelectableByKeyboard));
        QVERIFY(!flags.testFlag(Qt::TextEditable));

        // Typing, deleting and pasting change nothing.
        body->setFocus();
        QApplication::clipboard()->setText(QStringLiteral("pasted"));
        QTest::keyClicks(body, QStringLiteral("typed"));
        QTest::keyClick(body, Qt::Key_Backspace);
        QTest::keyClick(body, Qt::Key_Delete);
        QTest::keyClick(body, Qt::Key_V, Qt::ControlModifier);
        QCOMPARE(body->document()->toPlainText(), text);

        // A double-click selects a word; Ctrl+A, Ctrl+C copies the whole plan as text.
        const QTextBlock steps = block_with(*body->document(), QStringLiteral("Thread it through"));
        QTextCursor on_word(steps);
        on_word.movePosition(QTextCursor::NextCharacter, QTextCursor::MoveAnchor, 2);
        QTest::mouseDClick(body->viewport(), Qt::LeftButton, {},
                           body->cursorRect(on_word).center());
        QCOMPARE(body->textCursor().selectedText(), QStringLiteral("Thread"));
        QTest::keyClick(body, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClick(body, Qt::Key_C, Qt::ControlModifier);
        const QString copied = QApplication::clipboard()->text();
        QVERIFY(copied.contains(QLatin1String("detailed logging")));
        QVERIFY(copied.contains(QLatin1String("int verbose = 0;")));
        QVERIFY(!copied.contains(QLatin1String("**")));
    }

    void plan_header_shows_title_and_path() {
        PlanView view;
        view.show_plan(QStringLiteral("Add a flag"),
                       QStringLiteral(".rio/plans/20250101-120000-add-a-flag.md"), plan_markdown);
        QCOMPARE(view.header_text(), QStringLiteral("Plan — Add a flag"));
        auto* header = view.findChild<ViewHeader*>();
        QVERIFY(header);
        QLabel* label = header->findChild<QLabel*>();
        QVERIFY(label);
        view.resize(1400, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTRY_COMPARE(label->text(), view.header_text());
        QCOMPARE(label->toolTip(), QStringLiteral("Plan — Add a flag\n.rio/plans/"
                                                  "20250101-120000-add-a-flag.md"));
        QVERIFY2(view.comments_beside(), "room for the plan and its comments side by side");
        QVERIFY(!header->buttons_below());
        // Narrow: a short title and the decisions still share the row.
        view.resize(480, 600);
        QTRY_COMPARE(label->text(), view.header_text());
        QVERIFY(!header->buttons_below());
        // A long one: the decisions go under it, so that it is read whole where it fits (issue
        // 46: beside it they cut it, and made the window wider), and it is cut in the middle
        // where it does not, never down to a letter or two.
        view.show_plan(QStringLiteral("Add a flag to greet.py and a test that the shouted "
                                      "greeting is upper case everywhere"),
                       QStringLiteral(".rio/plans/20250101-120000-add-a-flag.md"), plan_markdown);
        QTRY_VERIFY(header->buttons_below());
        QVERIFY(header->minimumSizeHint().width() < 480);
        QTRY_VERIFY(label->text() != view.header_text());
        QVERIFY2(label->text().startsWith(QStringLiteral("Plan — ")), qPrintable(label->text()));
        QVERIFY2(label->text().contains(QStringLiteral("…")), qPrintable(label->text()));
        QVERIFY(label->width() >= label->fontMetrics().averageCharWidth() * 18);
        // Too narrow for both: the comments go under the plan, which keeps the width.
        QVERIFY(!view.comments_beside());

        // Not filed (no project): no path. A title with markup is shown as typed.
        view.show_plan(QStringLiteral("<b>Bold</b> & co"), QString(), plan_markdown);
        QCOMPARE(view.header_text(), QStringLiteral("Plan — <b>Bold</b> & co"));
        QCOMPARE(label->textFormat(), Qt::PlainText);
        QCOMPARE(header->close_button()->accessibleName(), QStringLiteral("Close plan"));
    }

    void plan_link_click_does_nothing() {
        PlanView view;
        view.resize(900, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.show_plan(QStringLiteral("Links"), QString(), plan_markdown);
        MarkdownView* body = view.body();
        const QTextDocument* document = body->document();
        const QString text = document->toPlainText();
        QSignalSpy activated(body, &MarkdownView::link_activated);
        QSignalSpy clicked(body, &QTextBrowser::anchorClicked);
        QSignalSpy source(body, &QTextBrowser::sourceChanged);

        for (const QString& href :
             {QStringLiteral("plan-mode.md"), QStringLiteral("https://example.com/rio")}) {
            const std::optional<QPoint> at = link_point(*body, href);
            QVERIFY(at);
            QCOMPARE(body->anchorAt(*at), href); // the point really is on the link
            hover(body->viewport(), *at);
            QVERIFY(body->viewport()->cursor().shape() != Qt::PointingHandCursor);
            QTest::mouseClick(body->viewport(), Qt::LeftButton, {}, *at);
            // QTextBrowser acts on a click inside the release; what it may have queued for
            // later has run by the end of this.
            QVERIFY(drain_events());
        }
        QCOMPARE(activated.count(), 0);
        QCOMPARE(clicked.count(), 0);
        QCOMPARE(source.count(), 0);
        QVERIFY(body->source().isEmpty());
        QCOMPARE(body->document(), document);
        QCOMPARE(body->document()->toPlainText(), text);

        // The same click on a following view does act: the checks above can tell.
        MarkdownView follow(MarkdownView::Links::follow);
        follow.resize(900, 700);
        follow.show();
        QVERIFY(QTest::qWaitForWindowExposed(&follow));
        follow.show_markdown(plan_markdown);
        QSignalSpy followed(&follow, &MarkdownView::link_activated);
        const std::optional<QPoint> at = link_point(follow, QStringLiteral("plan-mode.md"));
        QVERIFY(at);
        hover(follow.viewport(), *at);
        QCOMPARE(follow.viewport()->cursor().shape(), Qt::PointingHandCursor);
        QTest::mouseClick(follow.viewport(), Qt::LeftButton, {}, *at);
        QTRY_COMPARE(followed.count(), 1);
        QCOMPARE(followed.at(0).at(0).toUrl(), QUrl(QStringLiteral("plan-mode.md")));
    }

    void plan_escape_and_close_button_close() {
        PlanView view;
        view.resize(800, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.show_plan(QStringLiteral("Close me"), QString(), plan_markdown);
        QSignalSpy closed(&view, &PlanView::close_requested);

        QTest::keyClick(view.body(), Qt::Key_Escape, Qt::ShiftModifier); // not Esc alone
        QCOMPARE(closed.count(), 0);
        QTest::keyClick(view.body(), Qt::Key_Escape);
        QCOMPARE(closed.count(), 1);
        QTest::keyClick(view.body()->viewport(), Qt::Key_Escape);
        QCOMPARE(closed.count(), 2);

        QToolButton* close = view.findChild<ViewHeader*>()->close_button();
        QCOMPARE(close->text(), QStringLiteral("×"));
        QTest::mouseClick(close, Qt::LeftButton);
        QCOMPARE(closed.count(), 3);
    }

    void long_plan_paints_progressively() {
        // What a whole painting makes of the plan, to hold the progressive one against.
        const QString markdown = large_plan(100 * 1024);
        QTextDocument whole;
        paint_markdown(whole, md::parse(markdown.toStdString()),
                       markdown_look(QApplication::palette(), QApplication::font()));
        const QString all = whole.toPlainText();
        const QString last_step = all.mid(all.lastIndexOf(QStringLiteral("Step ")), 20);

        PlanView view;
        view.resize(900, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QString path = QStringLiteral(".rio/plans/long.md");
        view.show_plan(QStringLiteral("Long"), path, markdown);
        MarkdownView& body = *view.body();
        // The first screen is there, whole blocks from the top; the end is still to come.
        QVERIFY(body.painting());
        const QString first = body.document()->toPlainText();
        QVERIFY(first.size() > 5000);
        QVERIFY(first.size() < all.size() / 2);
        QVERIFY(all.startsWith(first));
        QVERIFY(!first.contains(last_step));

        // The event loop paints the rest, into the same document, as a whole painting would.
        const QTextDocument* document = body.document();
        QVERIFY(spin_until([&] { return !body.painting(); }));
        QCOMPARE(body.document(), document);
        QCOMPARE(body.document()->toPlainText(), all);
        QCOMPARE(body.document()->blockCount(), whole.blockCount());
        QCOMPARE(all_frames(body.document()->rootFrame()).size(),
                 all_frames(whole.rootFrame()).size());

        // Ctrl+End right after the plan is shown again goes to its real end.
        view.show_plan(QStringLiteral("Long"), QStringLiteral(".rio/plans/other.md"), markdown);
        QVERIFY(body.painting());
        QTest::keyClick(&body, Qt::Key_End, Qt::ControlModifier);
        QVERIFY(!body.painting());
        QCOMPARE(body.textCursor().position(), body.document()->characterCount() - 1);
        QVERIFY(body.viewport()->rect().contains(body.cursorRect()));

        // So does the context menu: its Select All and Copy take the whole plan.
        view.show_plan(QStringLiteral("Long"), QStringLiteral(".rio/plans/third.md"), markdown);
        QVERIFY(body.painting());
        emit body.customContextMenuRequested(QPoint(20, 20));
        QVERIFY(!body.painting());
        QTRY_VERIFY(QApplication::activePopupWidget() != nullptr);
        QApplication::activePopupWidget()->close();

        // The same plan shown again keeps its place, however far down that is.
        QScrollBar& scroll = *body.verticalScrollBar();
        QTRY_VERIFY(scroll.maximum() > 10000);
        const int place = scroll.maximum() * 3 / 4;
        scroll.setValue(place);
        view.show_plan(QStringLiteral("Long"), QStringLiteral(".rio/plans/third.md"), markdown);
        QCOMPARE(scroll.value(), place);
        QVERIFY(!body.painting());
    }

    void compare_view_shows_aligned_sides() {
        auto hunks = [](const QString& a, const QString& b) {
            std::vector<DiffHunkInfo> out;
            for (const DiffHunk& h : diff_lines(a.toStdString(), b.toStdString()).hunks)
                out.push_back({h.a_start, h.a_count, h.b_start, h.b_count, std::nullopt});
            return out;
        };
        CompareView view;
        view.resize(1900, 400); // room for two panes of 80 columns
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));

        const QString before = QStringLiteral("one\ntwo\nthree\nfour\nsix\n");
        const QString after = QStringLiteral("one\nTWO\nthree\nsix\nseven\neight\n");
        const CompareView::Labels labels{QStringLiteral("Proposed edit — notes.txt"),
                                         QStringLiteral("Original"), QStringLiteral("Proposed")};
        view.show_compare(QStringLiteral("notes.txt"), labels, before, after, hunks(before, after));
        QCOMPARE(view.header_text(), QStringLiteral("Proposed edit — notes.txt"));
        QVERIFY(!view.decidable());
        QCOMPARE(view.left_lines(), (QStringList{"one", "two", "three", "four", "six", "", ""}));
        QCOMPARE(view.right_lines(),
                 (QStringList{"one", "TWO", "three", "", "six", "seven", "eight"}));
        // The editors hold exactly those rows, and the rows carry their colours.
        QsciScintilla* left = view.left_editor();
        QsciScintilla* right = view.right_editor();
        QCOMPARE(left->lines(), 7);
        QCOMPARE(right->lines(), 7);
        QCOMPARE(left->text(1).trimmed(), QStringLiteral("two"));
        QCOMPARE(right->text(1).trimmed(), QStringLiteral("TWO"));
        QVERIFY(left->isReadOnly() && right->isReadOnly());
        const unsigned removed = 1u << 1, added = 1u << 2, changed = 1u << 3, padding = 1u << 4;
        QCOMPARE(left->markersAtLine(0), 0u); // unchanged
        QCOMPARE(right->markersAtLine(0), 0u);
        QCOMPARE(left->markersAtLine(1), changed);
        QCOMPARE(right->markersAtLine(1), changed);
        QCOMPARE(left->markersAtLine(3), removed);
        QCOMPARE(right->markersAtLine(3), padding);
        QCOMPARE(left->markersAtLine(5), padding);
        QCOMPARE(right->markersAtLine(5), added);
        QCOMPARE(view.rows()[5].kind, RowKind::added);

        // A long file: it opens near its one change, and the sides scroll together.
        QStringList lines;
        for (int i = 0; i < 400; ++i)
            lines << QStringLiteral("line %1").arg(i);
        const QString long_before = lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
        lines[250] = QStringLiteral("line 250, changed");
        const QString long_after = lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
        view.show_compare(QStringLiteral("long.txt"), labels, long_before, long_after,
                          hunks(long_before, long_after));
        QCOMPARE(left->firstVisibleLine(), 247);
        QCOMPARE(right->firstVisibleLine(), 247);
        left->verticalScrollBar()->setValue(100);
        QCOMPARE(right->verticalScrollBar()->value(), 100);
        QCOMPARE(right->firstVisibleLine(), 100);
        // Scintilla scrolling itself (the wheel, keys, the caret) moves the other side too.
        right->SendScintilla(QsciScintillaBase::SCI_LINESCROLL, 0UL, 37L);
        QCOMPARE(right->firstVisibleLine(), 137);
        QTRY_COMPARE(left->firstVisibleLine(), 137);
        QCOMPARE(left->verticalScrollBar()->value(), right->verticalScrollBar()->value());
        right->setFocus();
        right->setCursorPosition(140, 0);
        QTest::keyClick(right, Qt::Key_PageDown);
        QVERIFY(right->firstVisibleLine() > 137);
        QTRY_COMPARE(left->firstVisibleLine(), right->firstVisibleLine());
        left->SendScintilla(QsciScintillaBase::SCI_SETXOFFSET, 40UL); // sideways too
        QTRY_COMPARE(right->SendScintilla(QsciScintillaBase::SCI_GETXOFFSET), 40L);

        // Issue 32 item 5: too narrow for two panes of 80 columns, one column of the unified
        // diff, old lines red and new lines green; wide again, side by side again.
        view.show_compare(QStringLiteral("notes.txt"), labels, before, after, hunks(before, after));
        QVERIFY(!view.unified());
        view.resize(800, 400);
        QTRY_VERIFY(view.unified());
        QVERIFY(left->isHidden());
        QCOMPARE(right->lines(), 8);
        QStringList column;
        for (int line = 0; line < right->lines(); ++line)
            column << right->text(line).trimmed();
        QCOMPARE(column,
                 (QStringList{"one", "two", "TWO", "three", "four", "six", "seven", "eight"}));
        QCOMPARE(right->markersAtLine(0), 0u);
        QCOMPARE(right->markersAtLine(1), removed);
        QCOMPARE(right->markersAtLine(2), added);
        QCOMPARE(right->markersAtLine(4), removed);
        QCOMPARE(right->markersAtLine(7), added);
        QCOMPARE(view.right_lines(), (QStringList{"one", "TWO", "three", "", "six", "seven",
                                                  "eight"})); // the rows themselves stay
        view.resize(1900, 400);
        QTRY_VERIFY(!view.unified());
        QVERIFY(left->isVisible());
        QCOMPARE(right->lines(), 7);
    }

    void manual_opens_with_f1() {
        TempProject project;
        Session s(project);
        QVERIFY(s.settle());
        QVERIFY(!s.window.manual()); // made when first asked for
        QCOMPARE(s.window.centre()->current_view(), s.window.editors());

        ManualView* manual = s.press_f1();
        QVERIFY(manual);
        QCOMPARE(s.window.centre()->current_view(), manual);
        QVERIFY(manual->isVisible());
        QCOMPARE(manual->current_page(), QStringLiteral("index.md"));
        const std::vector<ManualPage>& pages = manual->pages();
        QCOMPARE(static_cast<int>(pages.size()), manual_files().size());
        QCOMPARE(manual->header_text(), QStringLiteral("Manual — ") + pages.front().title);
        QVERIFY(manual->body()->document()->toPlainText().contains(QLatin1String("make run")));
        QVERIFY(manual->body()->hasFocus());
        // The contents: every page by its title, in the manual's order, the open one current.
        QListWidget* contents = manual->contents();
        QCOMPARE(contents->count(), static_cast<int>(pages.size()));
        for (int row = 0; row < contents->count(); ++row)
            QCOMPARE(contents->item(row)->text(), pages[static_cast<std::size_t>(row)].title);
        QCOMPARE(contents->currentRow(), 0);

        // Esc closes it; F1 brings the same view back; × closes it too.
        QTest::keyClick(manual->body(), Qt::Key_Escape);
        QCOMPARE(s.window.centre()->current_view(), s.window.editors());
        QCOMPARE(s.press_f1(), manual);
        QCOMPARE(s.window.centre()->current_view(), manual);
        contents->setFocus();
        QTest::keyClick(contents, Qt::Key_Escape); // from the contents list too
        QCOMPARE(s.window.centre()->current_view(), s.window.editors());
        s.window.show_manual();
        QTest::mouseClick(manual->findChild<ViewHeader*>()->close_button(), Qt::LeftButton);
        QCOMPARE(s.window.centre()->current_view(), s.window.editors());

        // Help › Manual is the same action, with F1 on it.
        QAction* item = nullptr;
        for (QAction* menu : s.window.menuBar()->actions())
            if (menu->menu() && menu->text() == QStringLiteral("&Help"))
                for (QAction* action : menu->menu()->actions())
                    if (action->text() == QStringLiteral("&Manual")) item = action;
        QVERIFY(item);
        QCOMPARE(item->shortcut(), QKeySequence(Qt::Key_F1));
        item->trigger();
        QCOMPARE(s.window.centre()->current_view(), manual);
    }

    void manual_link_opens_page_and_anchor() {
        TempProject project;
        Session s(project);
        QVERIFY(s.settle());
        ManualView* manual = s.press_f1();
        QVERIFY(manual);
        MarkdownView* body = manual->body();

        // A click on a link to another page's heading: that page, scrolled to that heading.
        std::optional<QPoint> at = link_point(*body, QStringLiteral("plan-mode.md#edit-plan"));
        QVERIFY(at);
        hover(body->viewport(), *at);
        QCOMPARE(body->viewport()->cursor().shape(), Qt::PointingHandCursor);
        QTest::mouseClick(body->viewport(), Qt::LeftButton, {}, *at);
        QTRY_COMPARE(manual->current_page(), QStringLiteral("plan-mode.md"));
        QCOMPARE(manual->header_text(), QStringLiteral("Manual — Plan mode"));
        QCOMPARE(manual->contents()->currentRow(), 3);
        QVERIFY(body->has_anchor(QStringLiteral("edit-plan")));
        QVERIFY(scrolled_to(*body, QStringLiteral("edit-plan")));

        // A link to a heading of the same page: it scrolls there, the page stays.
        const QTextDocument* page = body->document();
        at = link_point(*body, QStringLiteral("#the-plan-view"));
        QVERIFY(at);
        QTest::mouseClick(body->viewport(), Qt::LeftButton, {}, *at);
        QTRY_VERIFY(scrolled_to(*body, QStringLiteral("the-plan-view")));
        QCOMPARE(body->document(), page); // not repainted
        QCOMPARE(manual->current_page(), QStringLiteral("plan-mode.md"));

        // A link to a page without an anchor: its top.
        manual->follow_link(QUrl(QStringLiteral("providers.md")));
        QCOMPARE(manual->current_page(), QStringLiteral("providers.md"));
        QCOMPARE(body->verticalScrollBar()->value(), 0);

        // A web link goes to the desktop's browser; the manual stays where it is.
        UrlCatcher browser;
        QDesktopServices::setUrlHandler(QStringLiteral("https"), &browser, "open");
        const QStringList hrefs = link_targets(*body->document());
        QString web;
        for (const QString& href : hrefs)
            if (href.startsWith(QLatin1String("https://"))) web = href;
        QVERIFY2(!web.isEmpty(), "providers.md links to at least one web page");
        at = link_point(*body, web);
        QVERIFY(at);
        const int scroll = body->verticalScrollBar()->value();
        QTest::mouseClick(body->viewport(), Qt::LeftButton, {}, *at);
        QTRY_COMPARE(browser.opened.size(), 1);
        QDesktopServices::unsetUrlHandler(QStringLiteral("https"));
        QCOMPARE(browser.opened.front(), QUrl(web));
        QCOMPARE(manual->current_page(), QStringLiteral("providers.md"));
        QCOMPARE(body->verticalScrollBar()->value(), scroll);

        // Links that lead nowhere change nothing.
        for (const char* nowhere : {"missing.md", "../README.md", "file:///etc/passwd"}) {
            manual->follow_link(QUrl(QString::fromLatin1(nowhere)));
            QCOMPARE(manual->current_page(), QStringLiteral("providers.md"));
        }
        QCOMPARE(browser.opened.size(), 1);

        // From the keyboard: Tab goes to the page's first link, Enter follows it.
        QVERIFY(manual->open(QStringLiteral("index.md")));
        const QString first = link_targets(*body->document()).front();
        const ManualLink expected = resolve_manual_link(first, manual_files());
        QCOMPARE(expected.kind, ManualLink::Kind::page);
        body->setFocus();
        QTest::keyClick(body, Qt::Key_Tab);
        QCOMPARE(body->textCursor().charFormat().anchorHref(), first);
        QTest::keyClick(body, Qt::Key_Return);
        QTRY_COMPARE(manual->current_page(), expected.page);
    }

    void manual_back_forward() {
        TempProject project;
        Session s(project);
        QVERIFY(s.settle());
        ManualView* manual = s.press_f1();
        QVERIFY(manual);
        MarkdownView* body = manual->body();
        QScrollBar* bar = body->verticalScrollBar();
        QVERIFY(!manual->back_button()->isEnabled());
        QVERIFY(!manual->forward_button()->isEnabled());

        // index → agent (from the contents, then scrolled down) → plan mode at a heading.
        manual->contents()->setCurrentRow(2);
        QCOMPARE(manual->current_page(), QStringLiteral("the-agent.md"));
        QVERIFY2(bar->maximum() > 300, "the-agent.md is longer than a screen");
        bar->setValue(300);
        manual->follow_link(QUrl(QStringLiteral("plan-mode.md#reject")));
        QCOMPARE(manual->current_page(), QStringLiteral("plan-mode.md"));
        QVERIFY(scrolled_to(*body, QStringLiteral("reject")));
        const int at_reject = bar->value();
        QVERIFY(manual->back_button()->isEnabled());
        QVERIFY(!manual->forward_button()->isEnabled());

        // Alt+Left: back to the-agent.md where it was left, then to the top of index.md.
        QTest::keyClick(body, Qt::Key_Left, Qt::AltModifier);
        QCOMPARE(manual->current_page(), QStringLiteral("the-agent.md"));
        QCOMPARE(bar->value(), 300);
        QCOMPARE(manual->contents()->currentRow(), 2);
        QCOMPARE(manual->header_text(), QStringLiteral("Manual — ") + manual->pages()[2].title);
        QTest::keyClick(manual->contents(), Qt::Key_Left, Qt::AltModifier); // from the list too
        QCOMPARE(manual->current_page(), QStringLiteral("index.md"));
        QCOMPARE(bar->value(), 0);
        QVERIFY(!manual->back_button()->isEnabled());
        QVERIFY(manual->forward_button()->isEnabled());
        QVERIFY(!manual->go_back()); // nothing before the first page

        // Alt+Right and the Forward button retrace the steps.
        QTest::keyClick(body, Qt::Key_Right, Qt::AltModifier);
        QCOMPARE(manual->current_page(), QStringLiteral("the-agent.md"));
        QCOMPARE(bar->value(), 300);
        QTest::mouseClick(manual->forward_button(), Qt::LeftButton);
        QCOMPARE(manual->current_page(), QStringLiteral("plan-mode.md"));
        QCOMPARE(bar->value(), at_reject);
        QVERIFY(!manual->forward_button()->isEnabled());

        // Scrolling, then Back via the button and Forward again: the new position is kept.
        bar->setValue(at_reject / 2);
        QTest::mouseClick(manual->back_button(), Qt::LeftButton);
        QCOMPARE(manual->current_page(), QStringLiteral("the-agent.md"));
        QVERIFY(manual->go_forward());
        QCOMPARE(bar->value(), at_reject / 2);

        // Going somewhere new from the middle drops what was ahead.
        QVERIFY(manual->go_back());
        manual->follow_link(QUrl(QStringLiteral("keyboard.md")));
        QCOMPARE(manual->current_page(), QStringLiteral("keyboard.md"));
        QVERIFY(!manual->forward_button()->isEnabled());
        QVERIFY(manual->go_back());
        QCOMPARE(manual->current_page(), QStringLiteral("the-agent.md"));

        // Alt+Left outside the manual is not the manual's.
        QTest::keyClick(manual->body(), Qt::Key_Escape);
        QCOMPARE(s.window.centre()->current_view(), s.window.editors());
        QTest::keyClick(&s.window, Qt::Key_Left, Qt::AltModifier);
        QCOMPARE(manual->current_page(), QStringLiteral("the-agent.md"));
    }

    void manual_keeps_anchor_and_scroll_while_plan_painted() {
        TempProject project;
        Session s(project);
        QVERIFY(s.settle());
        ManualView* manual = s.press_f1();
        QVERIFY(manual);
        MarkdownView* body = manual->body();
        manual->follow_link(QUrl(QStringLiteral("plan-mode.md#edit-plan")));
        QVERIFY(scrolled_to(*body, QStringLiteral("edit-plan")));
        const int scroll = body->verticalScrollBar()->value();
        const QTextDocument* document = body->document();
        const QString text = document->toPlainText();
        const QString header = manual->header_text();
        QVERIFY(!body->has_anchor(QStringLiteral("only-in-the-plan")));

        // The window's plan view (the chat's, when it has one) paints a plan whose headings
        // make the same anchors as the manual's, and one of its own, and scrolls to them.
        auto* plan = s.window.findChild<PlanView*>();
        if (!plan) {
            plan = new PlanView;
            s.window.centre()->add_view(plan);
        }
        const QString plan_text =
            QStringLiteral("# Edit plan\n\nSee [the manual](plan-mode.md#edit-plan).\n\n") +
            plan_markdown + QStringLiteral("\n## Only in the plan\n\n") +
            QStringLiteral("More text.\n\n").repeated(80);
        plan->show_plan(QStringLiteral("A plan"), QString(), plan_text);
        s.window.centre()->show_view(plan);
        QTRY_VERIFY(plan->isVisible());
        QVERIFY(plan->body()->scroll_to_anchor(QStringLiteral("only-in-the-plan")));
        QVERIFY(plan->body()->verticalScrollBar()->value() > 0);
        QVERIFY(plan->body()->scroll_to_anchor(QStringLiteral("edit-plan")));
        QVERIFY(!plan->body()->has_anchor(QStringLiteral("the-plan-view"))); // the manual's
        // What a text view does later: QTextDocumentLayout lays out in steps from a 10 ms
        // timer, then reports the new size (which sets the scroll bars) from a zero timer.
        // documentSize() finishes both layouts now; the drain delivers the size reports and
        // anything else queued.
        plan->body()->document()->documentLayout()->documentSize();
        body->document()->documentLayout()->documentSize();
        QVERIFY(drain_events());

        // The manual's page, text, anchors and scroll position are as they were.
        QCOMPARE(body->document(), document);
        QCOMPARE(body->document()->toPlainText(), text);
        QCOMPARE(body->verticalScrollBar()->value(), scroll);
        QCOMPARE(manual->current_page(), QStringLiteral("plan-mode.md"));
        QCOMPARE(manual->header_text(), header);
        QVERIFY(body->has_anchor(QStringLiteral("edit-plan")));
        QVERIFY(body->has_anchor(QStringLiteral("the-plan-view")));
        QVERIFY(!body->has_anchor(QStringLiteral("only-in-the-plan")));

        // Shown again, it is where it was left, and its links still work.
        QCOMPARE(s.press_f1(), manual);
        QCOMPARE(s.window.centre()->current_view(), manual);
        QCOMPARE(body->verticalScrollBar()->value(), scroll);
        QVERIFY(scrolled_to(*body, QStringLiteral("edit-plan")));
        manual->follow_link(QUrl(QStringLiteral("#the-plan-view")));
        QVERIFY(scrolled_to(*body, QStringLiteral("the-plan-view")));
        QVERIFY(manual->go_back());
        QCOMPARE(body->verticalScrollBar()->value(), scroll);
    }

    void manual_pages_all_render() {
        ManualView manual(find_manual_dir());
        manual.resize(620, 700); // about what is left of the centre beside the tree and chat
        manual.show();
        QVERIFY(QTest::qWaitForWindowExposed(&manual));
        const QStringList files = manual_files();
        QCOMPARE(files.first(), QStringLiteral("index.md"));
        QStringList titles;
        struct Link {
            QString from;
            QString href;
        };
        std::vector<Link> links;
        for (const ManualPage& page : manual.pages()) {
            QVERIFY2(manual.open(page.file), qPrintable(page.file));
            QCOMPARE(manual.current_page(), page.file);
            // A title from the page's own first heading, not the stand-in file name.
            QVERIFY2(!page.title.isEmpty() && page.title != page.file, qPrintable(page.file));
            QVERIFY2(!page.markdown.contains(QLatin1String("This page of the manual is missing")),
                     qPrintable(page.file));
            QCOMPARE(page.title, first_heading(page.markdown));
            QCOMPARE(manual.header_text(), QStringLiteral("Manual — ") + page.title);
            titles << page.title;
            const QString text = manual.body()->document()->toPlainText();
            QVERIFY2(text.size() > 300, qPrintable(page.file));
            // Settled (the scroll bars follow a new page a moment later), nothing is wider than
            // the view: no sideways scrolling.
            QTRY_VERIFY2(manual.body()->horizontalScrollBar()->maximum() == 0,
                         qPrintable(page.file));
            QVERIFY2(text.startsWith(page.title), qPrintable(page.file));
            // Outside code blocks (which show Markdown as it is), no Markdown syntax is left.
            const QString code_family = manual.body()->look().code.family();
            for (QTextBlock block = manual.body()->document()->begin(); block.isValid();
                 block = block.next()) {
                if (block.begin().atEnd() ||
                    block.begin().fragment().charFormat().font().family() == code_family)
                    continue;
                const QString where = page.file + QStringLiteral(": ") + block.text();
                for (const char* syntax : {"**", "](", "```", "<http"})
                    QVERIFY2(!block.text().contains(QLatin1String(syntax)), qPrintable(where));
                QVERIFY2(!block.text().startsWith(QLatin1Char('#')), qPrintable(where));
            }
            for (const QString& href : link_targets(*manual.body()->document()))
                links.push_back({page.file, href});
        }
        QCOMPARE(titles.size(), files.size());
        QCOMPARE(titles.removeDuplicates(), 0);

        // Every link resolves: a page of the manual and, when it names one, a heading there.
        int to_pages = 0, to_headings = 0;
        for (const Link& link : links) {
            const QString where = link.from + QStringLiteral(" → ") + link.href;
            const ManualLink target = resolve_manual_link(link.href, files);
            QVERIFY2(target.kind != ManualLink::Kind::unknown, qPrintable(where));
            if (target.kind == ManualLink::Kind::external) continue;
            const QString page = target.kind == ManualLink::Kind::anchor ? link.from : target.page;
            QVERIFY2(manual.open(page), qPrintable(where));
            if (!target.anchor.isEmpty()) {
                QVERIFY2(manual.body()->has_anchor(target.anchor), qPrintable(where));
                ++to_headings;
            }
            ++to_pages;
        }
        QVERIFY2(to_pages >= 15, "the pages link to one another");
        QVERIFY2(to_headings >= 8, "and to their headings");
        // Every page is linked to from another one.
        for (const QString& file : files) {
            bool linked = false;
            for (const Link& link : links)
                linked = linked ||
                         (link.from != file && resolve_manual_link(link.href, files).page == file);
            QVERIFY2(linked, qPrintable(file));
        }

        // A missing manual still lists its pages, each saying where it was looked for.
        const std::vector<ManualPage> missing = load_manual(QStringLiteral("/nonexistent/rio"));
        QCOMPARE(static_cast<int>(missing.size()), files.size());
        QCOMPARE(missing.front().title, QStringLiteral("index.md"));
        QVERIFY(missing.front().markdown.contains(QLatin1String("/nonexistent/rio/index.md")));
    }
};

QTEST_MAIN(ViewsTest)
#include "views_test.moc"
