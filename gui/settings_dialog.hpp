// Settings ▸ the pages of what rio connects to: the model providers and the MCP servers. It is
// a window of its own, not modal, so a server's state can be watched while the agent works.
#pragma once

#include <QDialog>

class QTabWidget;

namespace rio::gui {

class CoreClient;
class McpServersPage;
class ProvidersPage;

class SettingsDialog : public QDialog {
    Q_OBJECT
public:
    explicit SettingsDialog(CoreClient& core, QWidget* parent = nullptr);

    void show_mcp_servers(); // raises the dialog on that page, with a fresh list
    // Raises the dialog on the Providers page, showing `provider` (by default the one in use).
    void show_providers(const QString& provider = {});

    QTabWidget* pages() const { return pages_; }
    McpServersPage* mcp_servers() const { return mcp_; }
    ProvidersPage* providers() const { return providers_; }

private:
    void raise_on(QWidget* page);

    QTabWidget* pages_;
    ProvidersPage* providers_;
    McpServersPage* mcp_;
};

} // namespace rio::gui
