#include "gui/terminal_panel.hpp"

#include "gui/terminal_view.hpp"

#include <QTabBar>
#include <QTabWidget>
#include <QToolButton>

namespace rio::gui {

TerminalPanel::TerminalPanel(CoreClient& core, QWidget* parent)
    : QDockWidget(tr("Terminal"), parent), core_(core), tabs_(new QTabWidget) {
    setObjectName(QStringLiteral("terminal"));
    setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable);
    tabs_->setTabsClosable(true);
    tabs_->setDocumentMode(true);
    tabs_->setMovable(true);
    auto* more = new QToolButton;
    more->setText(QStringLiteral("+"));
    more->setAutoRaise(true);
    more->setToolTip(tr("Another terminal"));
    more->setAccessibleName(tr("New terminal"));
    connect(more, &QToolButton::clicked, this, [this] { open_terminal(); });
    tabs_->setCornerWidget(more, Qt::TopRightCorner);
    connect(tabs_, &QTabWidget::tabCloseRequested, this, &TerminalPanel::close_tab);
    setWidget(tabs_);
}

TerminalView* TerminalPanel::current() const {
    return qobject_cast<TerminalView*>(tabs_->currentWidget());
}

TerminalView* TerminalPanel::open_terminal() {
    auto* view = new TerminalView(core_);
    const int index = tabs_->addTab(view, tr("Terminal %1").arg(++opened_));
    tabs_->setCurrentIndex(index);
    connect(view, &TerminalView::started, this, [this, view] {
        if (const int at = tabs_->indexOf(view); at >= 0) {
            tabs_->setTabText(at, view->shell().section(QLatin1Char('/'), -1) +
                                      QStringLiteral(" %1").arg(at + 1));
            tabs_->setTabToolTip(at, view->shell());
        }
    });
    connect(view, &TerminalView::ended, this, [this, view] {
        if (const int at = tabs_->indexOf(view); at >= 0)
            tabs_->setTabText(at, tabs_->tabText(at) + tr(" (ended)"));
    });
    show();
    raise();
    view->setFocus(Qt::ShortcutFocusReason);
    view->start();
    return view;
}

void TerminalPanel::toggle() {
    TerminalView* view = current();
    if (isVisible() && view && view->hasFocus()) {
        hide();
        return;
    }
    if (!view) {
        open_terminal();
        return;
    }
    show();
    raise();
    view->setFocus(Qt::ShortcutFocusReason);
}

void TerminalPanel::close_tab(int index) {
    auto* view = qobject_cast<TerminalView*>(tabs_->widget(index));
    tabs_->removeTab(index);
    if (view) {
        view->close_terminal();
        view->deleteLater();
    }
    if (tabs_->count() == 0) hide();
}

} // namespace rio::gui
