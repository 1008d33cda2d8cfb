// Settings ▸ the pages of what rio connects to: the model providers, the MCP servers and the
// language servers. It is
// a window of its own, not modal, so a server's state can be watched while the agent works.
#pragma once

#include <QDialog>

class QTabWidget;

namespace rio::gui {

class CoreClient;
class LspServersPage;
class McpServersPage;
class ProvidersPage;

class SettingsDialog : public QDialog {
    Q_OBJECT
public:
    explicit SettingsDialog(CoreClient& core, QWidget* parent = nullptr);

    void show_mcp_servers(); // raises the dialog on that page, with a fresh list
    void show_lsp_servers(); // the same for the language servers
    // Raises the dialog on the Providers page, showing `provider` (by default the one in use).
    void show_providers(const QString& provider = {});
    void show_providers_to_connect(); // on the first provider that needs a key

    QTabWidget* pages() const { return pages_; }
    McpServersPage* mcp_servers() const { return mcp_; }
    LspServersPage* lsp_servers() const { return lsp_; }
    ProvidersPage* providers() const { return providers_; }

private:
    void raise_on(QWidget* page);

    QTabWidget* pages_;
    ProvidersPage* providers_;
    McpServersPage* mcp_;
    LspServersPage* lsp_;
};

} // namespace rio::gui
