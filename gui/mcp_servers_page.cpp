#include "gui/mcp_servers_page.hpp"

#include "gui/core_client.hpp"
#include "gui/servers_list.hpp"

#include <QVBoxLayout>

namespace rio::gui {
namespace {

QString mcp_source_words(const std::string& source) {
    if (source == "user") return McpServersPage::tr("your mcp.json");
    if (source == "project") return McpServersPage::tr("the project's .mcp.json");
    if (source == "editor") return McpServersPage::tr("the editor");
    return QString::fromStdString(source);
}

QString state_words(const McpServerInfo& server) {
    const QString error = QString::fromStdString(server.error.value_or(std::string()));
    if (server.state == ServerState::untrusted)
        return McpServersPage::tr("not started: trust the project to start it");
    if (server.state == ServerState::failed)
        return error.isEmpty() ? McpServersPage::tr("failed")
                               : McpServersPage::tr("failed: %1").arg(error);
    if (server.state == ServerState::ready)
        return server.tools.size() == 1
                   ? McpServersPage::tr("ready, 1 tool")
                   : McpServersPage::tr("ready, %1 tools").arg(server.tools.size());
    return QString::fromStdString(server.state.name());
}

QString tool_words(const McpToolInfo& tool) {
    return tool.is(ToolKind::read) ? McpServersPage::tr("reads only; offered in plan mode too, "
                                                        "run by the server outside the sandbox, "
                                                        "with the network")
                                   : McpServersPage::tr("asks before each call; not in plan mode");
}

ServerRow server_row(const McpServerInfo& server) {
    ServerRow row{QString::fromStdString(server.name),
                  mcp_source_words(server.source),
                  state_words(server),
                  {}};
    for (const McpToolInfo& tool : server.tools)
        row.lines.emplace_back(QString::fromStdString(tool.name), tool_words(tool));
    return row;
}

} // namespace

McpServersPage::McpServersPage(CoreClient& core, QWidget* parent)
    : QWidget(parent), core_(core),
      servers_(new ServersList(tr("No MCP servers. Add them to ~/.config/rio/mcp.json or to a "
                                  "trusted project's .mcp.json, in Claude Code's shape; F1 ▸ MCP "
                                  "servers."),
                               NoteShown::when_empty, tr("MCP servers"), nullptr)) {
    auto* column = new QVBoxLayout(this);
    column->addWidget(servers_);
    connect(servers_, &ServersList::restart_asked, this, &McpServersPage::restart);
    connect(&core_, &CoreClient::core_event, this, &McpServersPage::on_event);
}

void McpServersPage::refresh() {
    core_.call(McpListParams{}, this, [this](const client::Typed<McpListParams>& list) {
        if (list) show_servers(*list);
    });
}

void McpServersPage::on_event(const client::CoreEvent& event) {
    if (const auto* changed = std::get_if<McpChangedEvent>(&event)) show_servers(*changed);
}

void McpServersPage::show_servers(const McpListResult& list) {
    std::vector<ServerRow> rows;
    for (const McpServerInfo& server : list.servers)
        rows.push_back(server_row(server));
    servers_->show_rows(rows, list.problems);
    emit listed();
}

void McpServersPage::restart(const QString& name) {
    // The answer is the list after the restart began; mcp.changed follows as the server
    // comes up or fails.
    core_.call(McpRestartParams{name.toStdString()}, this,
               [this](const client::Typed<McpRestartParams>& list) {
                   if (!list) return servers_->show_problem(list.error().message);
                   show_servers(*list);
               });
}

} // namespace rio::gui
