#include "gui/settings_dialog.hpp"

#include "gui/mcp_servers_page.hpp"

#include <QDialogButtonBox>
#include <QPushButton>
#include <QTabWidget>
#include <QVBoxLayout>

namespace rio::gui {

SettingsDialog::SettingsDialog(CoreClient& core, QWidget* parent)
    : QDialog(parent), pages_(new QTabWidget), mcp_(new McpServersPage(core)) {
    setObjectName(QStringLiteral("settings"));
    setWindowTitle(tr("Settings"));
    pages_->addTab(mcp_, tr("&MCP Servers"));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    buttons->button(QDialogButtonBox::Close)->setText(tr("&Close"));
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* column = new QVBoxLayout(this);
    column->addWidget(pages_);
    column->addWidget(buttons);
    resize(640, 360);
}

void SettingsDialog::show_mcp_servers() {
    pages_->setCurrentWidget(mcp_);
    mcp_->refresh();
    show();
    raise();
    activateWindow();
}

} // namespace rio::gui
