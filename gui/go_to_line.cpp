#include "gui/go_to_line.hpp"

#include "gui/escape_key.hpp"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>
#include <algorithm>

namespace rio::gui {

std::optional<LineColumn> parse_line_column(const QString& text) {
    const QStringList parts = text.split(QLatin1Char(':'));
    if (parts.size() > 2) return std::nullopt;
    LineColumn at;
    bool ok = false;
    at.line = parts[0].trimmed().toInt(&ok);
    if (!ok || at.line < 1) return std::nullopt;
    if (parts.size() == 2) {
        at.column = parts[1].trimmed().toInt(&ok);
        if (!ok || at.column < 1) return std::nullopt;
    }
    return at;
}

GoToLineBar::GoToLineBar(QWidget* parent)
    : QWidget(parent), field_(new QLineEdit(this)), status_(new QLabel(this)) {
    setObjectName(QStringLiteral("go_to_line_bar"));
    setAutoFillBackground(true);
    field_->setAccessibleName(tr("Go to line"));
    field_->setMaximumWidth(220);
    auto* close = new QToolButton(this);
    close->setText(QStringLiteral("×"));
    close->setAutoRaise(true);
    close->setToolTip(tr("Close (Esc)"));
    close->setAccessibleName(tr("Close go to line"));
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(8, 5, 8, 5);
    row->setSpacing(6);
    row->addWidget(new QLabel(tr("Go to line:"), this));
    row->addWidget(field_);
    row->addWidget(status_, 1);
    row->addWidget(close);
    hide();
    connect(field_, &QLineEdit::returnPressed, this, &GoToLineBar::go);
    connect(close, &QToolButton::clicked, this, &GoToLineBar::close_bar);
}

void GoToLineBar::open(int lines, QWidget* back) {
    lines_ = std::max(lines, 1);
    back_ = back;
    field_->setPlaceholderText(tr("1–%1, or line:column").arg(lines_));
    status_->clear();
    show();
    field_->setFocus(Qt::ShortcutFocusReason);
    field_->selectAll();
}

void GoToLineBar::close_bar() {
    hide();
    if (back_) back_->setFocus(Qt::OtherFocusReason);
    back_ = nullptr;
}

QString GoToLineBar::status() const {
    return status_->text();
}

void GoToLineBar::go() {
    const std::optional<LineColumn> at = parse_line_column(field_->text());
    if (!at) {
        status_->setText(tr("Type a line number, or line:column"));
        return;
    }
    // The bar closes first so the focus is the editor's when it moves.
    close_bar();
    emit go_to(std::min(at->line, lines_), at->column);
}

void GoToLineBar::keyPressEvent(QKeyEvent* event) {
    if (!take_escape(event, [this] { close_bar(); })) QWidget::keyPressEvent(event);
}

} // namespace rio::gui
