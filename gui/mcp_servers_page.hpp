// The MCP servers rio knows (DESIGN §16), as mcp.list gives them and mcp.changed updates
// them: each with where it comes from, its state in words (why it failed; that an untrusted
// project's server waits for trust) and its tools beneath, read-only ones marked as admitted
// in plan mode. Restart asks the core to stop and start the selected server again.
#pragma once

#include "client/events.hpp"

#include <QWidget>

namespace rio::gui {

class CoreClient;
class ServersList;

class McpServersPage : public QWidget {
    Q_OBJECT
public:
    explicit McpServersPage(CoreClient& core, QWidget* parent = nullptr);

    void refresh(); // mcp.list

    ServersList* servers() const { return servers_; }

signals:
    void listed(); // a list from the core is shown

private:
    void on_event(const client::CoreEvent& event);
    void show_servers(const McpListResult& list);
    void restart(const QString& name);

    CoreClient& core_;
    ServersList* servers_;
};

} // namespace rio::gui
