#include "gui/compare_view.hpp"

#include "gui/edit_decisions.hpp"
#include "gui/editor_style.hpp"
#include "gui/escape_key.hpp"
#include "gui/lexers.hpp"
#include "gui/theme.hpp"
#include "gui/view_header.hpp"

#include <QKeyEvent>
#include <QScrollBar>
#include <QShortcut>
#include <QSplitter>
#include <QVBoxLayout>
#include <Qsci/qscilexer.h>
#include <Qsci/qsciscintilla.h>

namespace rio::gui {
namespace {

// Background markers, one per row kind; "padding" marks the side that has no line.
enum Marker { removed_marker = 1, added_marker, changed_marker, padding_marker };

constexpr int line_number_style = 33; // STYLE_LINENUMBER: the margin's own colours

void colour_side(QsciScintilla& side, const ThemeColours& colours) {
    colour_code(side, colours);
    side.setMarkerBackgroundColor(colours.removed, removed_marker);
    side.setMarkerBackgroundColor(colours.added, added_marker);
    side.setMarkerBackgroundColor(colours.changed, changed_marker);
    side.setMarkerBackgroundColor(colours.padding, padding_marker);
}

QsciScintilla* make_side(const QString& accessible_name, QWidget* parent) {
    auto* side = new QsciScintilla(parent);
    side->setAccessibleName(accessible_name);
    side->setUtf8(true);
    side->setMarginType(0, QsciScintilla::TextMargin);
    for (Marker marker : {removed_marker, added_marker, changed_marker, padding_marker})
        side->markerDefine(QsciScintilla::Background, marker);
    follow_theme(side, [side] { colour_side(*side, theme_colours()); });
    return side;
}

int marker_for(RowKind kind, bool has_line) {
    if (!has_line) return padding_marker;
    switch (kind) {
    case RowKind::removed:
        return removed_marker;
    case RowKind::added:
        return added_marker;
    case RowKind::changed:
        return changed_marker;
    case RowKind::same:
        break;
    }
    return -1;
}

} // namespace

CompareView::CompareView(QWidget* parent)
    : QWidget(parent), header_(new ViewHeader(tr("Close compare"), this)),
      decisions_(new EditDecisions(this)), left_(make_side(tr("Original"), this)),
      right_(make_side(tr("Proposed"), this)) {
    setObjectName(QStringLiteral("compare_view"));
    auto* sides = new QSplitter(Qt::Horizontal, this);
    sides->addWidget(left_);
    sides->addWidget(right_);
    sides->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(header_);
    layout->addWidget(sides, 1);
    layout->addWidget(decisions_);
    decisions_->hide();
    setFocusProxy(right_);
    left_->installEventFilter(this);
    right_->installEventFilter(this);
    keep_in_step(*left_, *right_);
    keep_in_step(*right_, *left_);
    connect(header_, &ViewHeader::close_clicked, this, &CompareView::close_requested);
    connect(decisions_, &EditDecisions::approve_requested, this, &CompareView::approve_requested);
    connect(decisions_, &EditDecisions::reject_requested, this, &CompareView::reject_requested);
    // Anywhere in the view, whatever has the focus inside it.
    const auto shortcut = [this](QKeyCombination keys, bool rest_of_turn) {
        auto* s = new QShortcut(QKeySequence(keys), this);
        s->setContext(Qt::WidgetWithChildrenShortcut);
        connect(s, &QShortcut::activated, this,
                [this, rest_of_turn] { approve_by_key(rest_of_turn); });
    };
    shortcut(Qt::CTRL | Qt::Key_Return, false);
    shortcut(Qt::CTRL | Qt::Key_Enter, false);
    shortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_Return, true);
    shortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_Enter, true);
}

void CompareView::set_decidable(bool decidable) {
    decidable_ = decidable;
    decisions_->reset();
    decisions_->setVisible(decidable);
    deciding_ = false;
}

void CompareView::set_deciding(bool deciding) {
    deciding_ = deciding;
    decisions_->set_deciding(deciding);
}

void CompareView::approve_by_key(bool rest_of_turn) {
    if (decidable_ && !deciding_) emit approve_requested(rest_of_turn);
}

void CompareView::show_compare(const QString& path, const Labels& labels, const QString& before,
                               const QString& after, const std::vector<DiffHunkInfo>& hunks) {
    header_->set_text(labels.heading);
    left_->setAccessibleName(labels.left);
    right_->setAccessibleName(labels.right);
    rows_ = compare_rows(line_hunks(hunks), split_lines(before), split_lines(after));
    path_ = path;
    unified_ = width() < side_by_side_width();
    show_rows();
}

int CompareView::side_by_side_width() const {
    // Two panes of about 80 columns, each with its line numbers.
    return 2 * 86 * QFontMetrics(editor_font()).horizontalAdvance(QLatin1Char('M'));
}

void CompareView::show_rows() {
    left_->setVisible(!unified_);
    if (unified_) {
        fill_unified(path_);
    } else {
        fill(*left_, path_, true);
        fill(*right_, path_, false);
        share_scroll_width();
    }
    filled_unified_ = unified_;
    open_at_first_difference();
}

// Open on the first difference rather than the top of a long file.
void CompareView::open_at_first_difference() {
    if (unified_) {
        const std::vector<UnifiedRow> lines = unified_rows(rows_);
        for (std::size_t row = 0; row < lines.size(); ++row)
            if (lines[row].kind != RowKind::same) {
                right_->setFirstVisibleLine(std::max(0, static_cast<int>(row) - 3));
                break;
            }
        return;
    }
    for (std::size_t row = 0; row < rows_.size(); ++row) {
        if (rows_[row].kind == RowKind::same) continue;
        const int first = std::max(0, static_cast<int>(row) - 3);
        left_->setFirstVisibleLine(first);
        right_->setFirstVisibleLine(first);
        break;
    }
}

void CompareView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    const bool unified = width() < side_by_side_width();
    if (unified == unified_) return;
    unified_ = unified;
    if (!rows_.empty() || filled_unified_) show_rows();
}

void CompareView::fill_unified(const QString& path) {
    fill(*right_, path, false); // the lexer, style and colours of the right-hand side
    const std::vector<UnifiedRow> lines = unified_rows(rows_);
    QStringList text;
    text.reserve(static_cast<int>(lines.size()));
    for (const UnifiedRow& line : lines)
        text << line.text;
    right_->setReadOnly(false);
    right_->setText(text.join(QLatin1Char('\n')));
    right_->setReadOnly(true);
    right_->markerDeleteAll();
    right_->clearMarginText();
    int widest = 1;
    for (std::size_t index = 0; index < lines.size(); ++index) {
        const int line = static_cast<int>(index);
        const QString label = (lines[index].kind == RowKind::removed ? QStringLiteral("−")
                               : lines[index].kind == RowKind::added ? QStringLiteral("+")
                                                                     : QStringLiteral(" ")) +
                              QString::number(lines[index].number + 1);
        widest = std::max(widest, static_cast<int>(label.size()));
        right_->setMarginText(line, label, line_number_style);
        if (lines[index].kind == RowKind::removed) right_->markerAdd(line, removed_marker);
        if (lines[index].kind == RowKind::added) right_->markerAdd(line, added_marker);
    }
    right_->setMarginWidth(0, QString(widest + 1, QLatin1Char('9')));
}

void CompareView::fill(QsciScintilla& side, const QString& path, bool left) {
    const QFont font = editor_font();
    // The old lexer goes with its editor's next one; lexers belong to the side.
    QsciLexer* old = side.lexer();
    if (QsciLexer* lexer = lexer_for(path, &side)) {
        style_lexer(*lexer, font);
        side.setLexer(lexer);
    } else {
        side.setLexer(nullptr);
        side.setFont(font);
    }
    delete old;
    style_editor(side, font);
    colour_side(side, theme_colours());
    side.setMarginType(0, QsciScintilla::TextMargin); // file line numbers, not row numbers

    QStringList lines;
    lines.reserve(static_cast<int>(rows_.size()));
    for (const CompareRow& row : rows_)
        lines << (left ? row.left_text : row.right_text);
    side.setReadOnly(false);
    side.setText(lines.join(QLatin1Char('\n')));
    side.setReadOnly(true);

    side.markerDeleteAll();
    side.clearMarginText();
    int widest = 1;
    for (std::size_t index = 0; index < rows_.size(); ++index) {
        const CompareRow& row = rows_[index];
        const std::optional<int>& number = left ? row.left : row.right;
        const int line = static_cast<int>(index);
        if (number) {
            const QString label = QString::number(*number + 1);
            widest = std::max(widest, static_cast<int>(label.size()));
            side.setMarginText(line, label, line_number_style);
        }
        if (const int marker = marker_for(row.kind, number.has_value()); marker >= 0) {
            side.markerAdd(line, marker);
        }
    }
    side.setMarginWidth(0, QString(widest + 1, QLatin1Char('9')));
}

void CompareView::keep_in_step(QsciScintilla& one, QsciScintilla& other) {
    // Rows are aligned, so both sides show the same first row and the same column. Scintilla
    // moves its scroll bars without their signals when it scrolls itself (wheel, keys, the
    // caret), and tells of that only by SCN_UPDATEUI; dragging a bar is seen by its signal.
    connect(&one, &QsciScintillaBase::SCN_UPDATEUI, this, [this, &one, &other](int updated) {
        if (syncing_ || !(updated & (QsciScintillaBase::SC_UPDATE_V_SCROLL |
                                     QsciScintillaBase::SC_UPDATE_H_SCROLL)))
            return;
        syncing_ = true;
        if (other.firstVisibleLine() != one.firstVisibleLine())
            other.setFirstVisibleLine(one.firstVisibleLine());
        const long x = one.SendScintilla(QsciScintillaBase::SCI_GETXOFFSET);
        if (other.SendScintilla(QsciScintillaBase::SCI_GETXOFFSET) != x)
            other.SendScintilla(QsciScintillaBase::SCI_SETXOFFSET, x);
        syncing_ = false;
    });
    connect(one.verticalScrollBar(), &QScrollBar::valueChanged, this, [this, &other](int value) {
        if (syncing_) return;
        syncing_ = true;
        other.verticalScrollBar()->setValue(value);
        syncing_ = false;
    });
    connect(one.horizontalScrollBar(), &QScrollBar::valueChanged, this, [this, &other](int value) {
        if (syncing_) return;
        syncing_ = true;
        other.horizontalScrollBar()->setValue(value);
        syncing_ = false;
    });
}

void CompareView::share_scroll_width() {
    // Equal scroll ranges keep the horizontal positions meaningful on both sides.
    const long width = std::max(left_->SendScintilla(QsciScintillaBase::SCI_GETSCROLLWIDTH),
                                right_->SendScintilla(QsciScintillaBase::SCI_GETSCROLLWIDTH));
    left_->SendScintilla(QsciScintillaBase::SCI_SETSCROLLWIDTH, width);
    right_->SendScintilla(QsciScintillaBase::SCI_SETSCROLLWIDTH, width);
}

QStringList CompareView::left_lines() const {
    QStringList lines;
    for (const CompareRow& row : rows_)
        lines << (row.left ? row.left_text : QString());
    return lines;
}

QStringList CompareView::right_lines() const {
    QStringList lines;
    for (const CompareRow& row : rows_)
        lines << (row.right ? row.right_text : QString());
    return lines;
}

QString CompareView::header_text() const {
    return header_->text();
}

void CompareView::keyPressEvent(QKeyEvent* event) {
    if (!take_escape(event, [this] { emit close_requested(); })) QWidget::keyPressEvent(event);
}

bool CompareView::eventFilter(QObject* watched, QEvent* event) {
    // Scintilla takes Esc (and may take Ctrl+Enter) for itself; the view wants them wherever
    // the focus is.
    if (event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        if (take_escape(key, [this] { emit close_requested(); })) return true;
        const bool enter = key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter;
        const Qt::KeyboardModifiers mods = key->modifiers() & ~Qt::KeypadModifier;
        if (enter &&
            (mods == Qt::ControlModifier || mods == (Qt::ControlModifier | Qt::ShiftModifier))) {
            approve_by_key(mods.testFlag(Qt::ShiftModifier));
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace rio::gui
