#include "gui/plan_view.hpp"

#include "gui/markdown_view.hpp"
#include "gui/view_header.hpp"

#include <QKeyEvent>
#include <QVBoxLayout>

namespace rio::gui {

PlanView::PlanView(QWidget* parent)
    : QWidget(parent), header_(new ViewHeader(tr("Close plan"), this)),
      body_(new MarkdownView(MarkdownView::Links::inactive, this)) {
    setObjectName(QStringLiteral("plan_view"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(header_);
    layout->addWidget(body_, 1);
    setFocusProxy(body_);
    connect(header_, &ViewHeader::close_clicked, this, &PlanView::close_requested);
}

void PlanView::show_plan(const QString& title, const QString& path, const QString& markdown) {
    QString text = tr("Plan — %1").arg(title);
    if (!path.isEmpty()) text += QStringLiteral(" · ") + path;
    header_->set_text(text);
    body_->show_markdown(markdown);
}

QString PlanView::header_text() const {
    return header_->text();
}

void PlanView::keyPressEvent(QKeyEvent* event) {
    // The body ignores Esc, so it arrives here wherever the focus is in the view.
    if (event->key() == Qt::Key_Escape && event->modifiers() == Qt::NoModifier) {
        event->accept();
        emit close_requested();
        return;
    }
    QWidget::keyPressEvent(event);
}

} // namespace rio::gui
