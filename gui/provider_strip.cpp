#include "gui/provider_strip.hpp"

#include <QMenu>
#include <QScreen>
#include <QStyle>
#include <QStyleOptionToolButton>

namespace rio::gui {
namespace {

// The widest the label asks to be, in average characters: past it, it is cut even when the
// chat has room, so that a model's long id does not widen the panel.
constexpr int widest_label_chars = 36;

} // namespace

ProviderStrip::ProviderStrip(QWidget* parent) : QToolButton(parent), menu_(new QMenu(this)) {
    setPopupMode(QToolButton::InstantPopup);
    setToolButtonStyle(Qt::ToolButtonTextOnly);
    setAutoRaise(true);
    setMenu(menu_);
    setAccessibleName(tr("Provider and model"));
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    full_ = QStringLiteral("…");
    fit_text();
    menu_->addAction(tr("Loading…"))->setEnabled(false);
    connect(menu_, &QMenu::aboutToShow, this, &ProviderStrip::menu_opening);
}

void ProviderStrip::show_status(const QString& provider, const QString& model,
                                const QString& builder) {
    QString text = provider.isEmpty() ? tr("no provider") : provider;
    if (!model.isEmpty() && model != provider) text += QStringLiteral(" · ") + model;
    full_ = text;
    if (builder.isEmpty())
        setToolTip(tr("%1 — the model provider and model; click to switch provider").arg(text));
    else
        setToolTip(tr("%1 plans; %2 takes over when you approve the plan. Click to switch "
                      "provider")
                       .arg(text, builder));
    updateGeometry();
    fit_text();
}

void ProviderStrip::show_providers(const ProvidersResult& providers) {
    menu_->clear();
    for (const ProviderInfo& p : providers.providers) {
        const QString name = QString::fromStdString(p.name);
        QString label = name;
        if (!p.description.empty())
            label += QStringLiteral(" — ") + QString::fromStdString(p.description);
        const bool ready = p.ready;
        if (!ready) label += tr("  (no key — set it up…)");
        QAction* action = menu_->addAction(label);
        action->setCheckable(true);
        action->setChecked(p.active);
        connect(action, &QAction::triggered, this, [this, name, ready] {
            if (ready)
                emit provider_chosen(name);
            else
                emit setup_requested(name);
        });
    }
    if (menu_->isEmpty()) menu_->addAction(tr("No providers"))->setEnabled(false);
    menu_->addSeparator();
    connect(menu_->addAction(tr("&Providers…")), &QAction::triggered, this,
            [this] { emit setup_requested(QString()); });
    keep_menu_on_screen();
}

// The entries arrive while the menu is open ("Loading…" first), and a wider menu grew past
// the screen's right edge where Qt had placed the narrow one (issue 46).
void ProviderStrip::keep_menu_on_screen() {
    if (!menu_->isVisible()) return;
    menu_->adjustSize();
    const QScreen* screen = menu_->screen();
    if (!screen) return;
    const QRect room = screen->availableGeometry();
    QRect place = menu_->geometry();
    if (place.right() > room.right()) place.moveRight(room.right());
    if (place.left() < room.left()) place.moveLeft(room.left());
    menu_->move(place.topLeft());
}

int ProviderStrip::padding() const {
    // Margins, frame and the menu indicator: QToolButton::sizeHint's sum without the text
    // itself (which it widens by a space either side).
    QStyleOptionToolButton option;
    initStyleOption(&option);
    option.text.clear();
    const QSize around(fontMetrics().horizontalAdvance(QLatin1Char(' ')) * 2,
                       fontMetrics().height());
    return style()->sizeFromContents(QStyle::CT_ToolButton, &option, around, this).width();
}

QSize ProviderStrip::sizeHint() const {
    const QFontMetrics metrics = fontMetrics();
    // A pixel either side: elidedText cuts a text given exactly its own advance.
    const int text = std::min(metrics.horizontalAdvance(full_) + 2,
                              metrics.averageCharWidth() * widest_label_chars);
    return {padding() + text, QToolButton::sizeHint().height()};
}

QSize ProviderStrip::minimumSizeHint() const {
    return {padding() + fontMetrics().horizontalAdvance(QStringLiteral("…")) * 3,
            QToolButton::minimumSizeHint().height()};
}

void ProviderStrip::resizeEvent(QResizeEvent* event) {
    QToolButton::resizeEvent(event);
    fit_text();
}

void ProviderStrip::fit_text() {
    const int room = std::max(0, width() - padding());
    setText(fontMetrics().elidedText(full_, Qt::ElideMiddle, room));
}

} // namespace rio::gui
