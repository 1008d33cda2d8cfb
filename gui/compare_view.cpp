#include "gui/compare_view.hpp"

#include "gui/editor_style.hpp"
#include "gui/lexers.hpp"
#include "gui/view_header.hpp"

#include <QKeyEvent>
#include <QScrollBar>
#include <QSplitter>
#include <QVBoxLayout>
#include <Qsci/qscilexer.h>
#include <Qsci/qsciscintilla.h>

namespace rio::gui {
namespace {

// Background markers, one per row kind; "padding" marks the side that has no line.
enum Marker { removed_marker = 1, added_marker, changed_marker, padding_marker };

constexpr int line_number_style = 33; // STYLE_LINENUMBER: the margin's own colours

QsciScintilla* make_side(const QString& accessible_name, QWidget* parent) {
    auto* side = new QsciScintilla(parent);
    side->setAccessibleName(accessible_name);
    side->setUtf8(true);
    side->setMarginType(0, QsciScintilla::TextMargin);
    side->markerDefine(QsciScintilla::Background, removed_marker);
    side->setMarkerBackgroundColor(QColor(0xfb, 0xe0, 0xe0), removed_marker);
    side->markerDefine(QsciScintilla::Background, added_marker);
    side->setMarkerBackgroundColor(QColor(0xdf, 0xf5, 0xdf), added_marker);
    side->markerDefine(QsciScintilla::Background, changed_marker);
    side->setMarkerBackgroundColor(QColor(0xfd, 0xf3, 0xd0), changed_marker);
    side->markerDefine(QsciScintilla::Background, padding_marker);
    side->setMarkerBackgroundColor(QColor(0xee, 0xee, 0xee), padding_marker);
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
      left_(make_side(tr("Original"), this)), right_(make_side(tr("Proposed"), this)) {
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
    setFocusProxy(right_);
    left_->installEventFilter(this);
    right_->installEventFilter(this);
    keep_in_step(*left_, *right_);
    keep_in_step(*right_, *left_);
    connect(header_, &ViewHeader::close_clicked, this, &CompareView::close_requested);
}

void CompareView::show_compare(const QString& path, const QString& before, const QString& after,
                               const Json& hunks, const QString& sides) {
    header_->set_text(
        tr("Compare — %1 · %2").arg(path, sides.isEmpty() ? tr("original | proposed") : sides));
    rows_ = compare_rows(hunks_from_json(hunks), split_lines(before), split_lines(after));
    fill(*left_, path, true);
    fill(*right_, path, false);
    share_scroll_width();
    // Open on the first difference rather than the top of a long file.
    for (std::size_t row = 0; row < rows_.size(); ++row) {
        if (rows_[row].kind == RowKind::same) continue;
        const int first = std::max(0, static_cast<int>(row) - 3);
        left_->setFirstVisibleLine(first);
        right_->setFirstVisibleLine(first);
        break;
    }
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
    if (event->key() == Qt::Key_Escape && event->modifiers() == Qt::NoModifier) {
        event->accept();
        emit close_requested();
        return;
    }
    QWidget::keyPressEvent(event);
}

bool CompareView::eventFilter(QObject* watched, QEvent* event) {
    // Scintilla takes Esc for itself; the view wants it wherever the focus is.
    if (event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Escape && key->modifiers() == Qt::NoModifier) {
            emit close_requested();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace rio::gui
