#include "gui/settings_dialog.hpp"

#include "gui/lsp_servers_page.hpp"
#include "gui/mcp_servers_page.hpp"
#include "gui/providers_page.hpp"

#include <QDialogButtonBox>
#include <QPushButton>
#include <QTabWidget>
#include <QVBoxLayout>

namespace rio::gui {

SettingsDialog::SettingsDialog(CoreClient& core, QWidget* parent)
    : QDialog(parent), pages_(new QTabWidget), providers_(new ProvidersPage(core)),
      mcp_(new McpServersPage(core)), lsp_(new LspServersPage(core)) {
    setObjectName(QStringLiteral("settings"));
    setWindowTitle(tr("Settings"));
    pages_->addTab(providers_, tr("&Providers"));
    pages_->addTab(mcp_, tr("&MCP Servers"));
    pages_->addTab(lsp_, tr("&Language Servers"));
    // A tab picked by hand shows what the core has now, not what it had when the dialog was
    // made (issue 46: the Language Servers tab stayed empty unless opened from its menu item).
    connect(pages_, &QTabWidget::currentChanged, this, [this](int index) {
        QWidget* page = pages_->widget(index);
        if (page == lsp_) lsp_->refresh();
        if (page == mcp_) mcp_->refresh();
    });
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    buttons->button(QDialogButtonBox::Close)->setText(tr("&Close"));
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* column = new QVBoxLayout(this);
    column->addWidget(pages_);
    column->addWidget(buttons);
    resize(680, 440);
}

void SettingsDialog::show_mcp_servers() {
    if (pages_->currentWidget() == mcp_) mcp_->refresh();
    raise_on(mcp_);
}

void SettingsDialog::show_lsp_servers() {
    if (pages_->currentWidget() == lsp_) lsp_->refresh();
    raise_on(lsp_);
}

void SettingsDialog::show_providers(const QString& provider) {
    providers_->refresh(provider);
    raise_on(providers_);
}

void SettingsDialog::show_providers_to_connect() {
    providers_->refresh_to_connect();
    raise_on(providers_);
}

void SettingsDialog::raise_on(QWidget* page) {
    pages_->setCurrentWidget(page);
    show();
    raise();
    activateWindow();
}

} // namespace rio::gui
