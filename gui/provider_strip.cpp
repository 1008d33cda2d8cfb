#include "gui/provider_strip.hpp"

#include "gui/json_text.hpp"

#include <QMenu>

namespace rio::gui {

ProviderStrip::ProviderStrip(QWidget* parent) : QToolButton(parent), menu_(new QMenu(this)) {
    setPopupMode(QToolButton::InstantPopup);
    setToolButtonStyle(Qt::ToolButtonTextOnly);
    setAutoRaise(true);
    setMenu(menu_);
    setToolTip(tr("The model provider and model; click to switch provider"));
    setAccessibleName(tr("Provider and model"));
    setText(QStringLiteral("…"));
    menu_->addAction(tr("Loading…"))->setEnabled(false);
    connect(menu_, &QMenu::aboutToShow, this, &ProviderStrip::menu_opening);
}

void ProviderStrip::show_status(const QString& provider, const QString& model) {
    QString text = provider.isEmpty() ? tr("no provider") : provider;
    if (!model.isEmpty() && model != provider) text += QStringLiteral(" · ") + model;
    setText(text);
}

void ProviderStrip::show_providers(const Json& providers) {
    menu_->clear();
    const Json list = providers.value("providers", Json::array());
    for (const Json& p : list) {
        const QString name = json_string(p, "name");
        QString label = name;
        if (const QString description = json_string(p, "description"); !description.isEmpty())
            label += QStringLiteral(" — ") + description;
        if (json_string(p, "key") == QLatin1String("none")) label += tr("  (no key)");
        QAction* action = menu_->addAction(label);
        action->setCheckable(true);
        action->setChecked(p.value("active", false));
        connect(action, &QAction::triggered, this, [this, name] { emit provider_chosen(name); });
    }
    if (menu_->isEmpty()) menu_->addAction(tr("No providers"))->setEnabled(false);
}

} // namespace rio::gui
