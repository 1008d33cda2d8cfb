// Settings ▸ the pages of what rio connects to. For now one page, the MCP servers; it is a
// window of its own, not modal, so a server's state can be watched while the agent works.
#pragma once

#include <QDialog>

class QTabWidget;

namespace rio::gui {

class CoreClient;
class McpServersPage;

class SettingsDialog : public QDialog {
    Q_OBJECT
public:
    explicit SettingsDialog(CoreClient& core, QWidget* parent = nullptr);

    void show_mcp_servers(); // raises the dialog on that page, with a fresh list

    QTabWidget* pages() const { return pages_; }
    McpServersPage* mcp_servers() const { return mcp_; }

private:
    QTabWidget* pages_;
    McpServersPage* mcp_;
};

} // namespace rio::gui
