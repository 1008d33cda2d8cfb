#include "gui/mcp_servers_page.hpp"

#include "gui/core_client.hpp"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace rio::gui {
namespace {

constexpr int name_role = Qt::UserRole;

QString source_words(const std::string& source) {
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

QTreeWidgetItem* server_item(const McpServerInfo& server) {
    auto* item = new QTreeWidgetItem;
    const QString name = QString::fromStdString(server.name);
    item->setText(0, name);
    item->setText(1, source_words(server.source));
    item->setText(2, state_words(server));
    item->setToolTip(2, item->text(2));
    item->setData(0, name_role, name);
    for (const McpToolInfo& tool : server.tools) {
        auto* child = new QTreeWidgetItem(item);
        child->setText(0, QString::fromStdString(tool.name));
        child->setText(2, tool_words(tool));
        child->setData(0, name_role, name);
    }
    return item;
}

} // namespace

McpServersPage::McpServersPage(CoreClient& core, QWidget* parent)
    : QWidget(parent), core_(core),
      empty_(new QLabel(tr("No MCP servers. Add them to ~/.config/rio/mcp.json or to a trusted "
                           "project's .mcp.json, in Claude Code's shape; F1 ▸ MCP servers."))),
      problems_(new QLabel), list_(new QTreeWidget), restart_(new QPushButton(tr("&Restart"))) {
    empty_->setWordWrap(true);
    problems_->setWordWrap(true);
    problems_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    problems_->hide();
    list_->setColumnCount(3);
    list_->setHeaderLabels({tr("Server"), tr("From"), tr("State")});
    list_->header()->setStretchLastSection(true);
    list_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    list_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    list_->setAccessibleName(tr("MCP servers"));
    restart_->setEnabled(false);
    restart_->setToolTip(tr("Stop the selected server and start it again"));

    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(restart_);
    auto* column = new QVBoxLayout(this);
    column->addWidget(empty_);
    column->addWidget(problems_);
    column->addWidget(list_, 1);
    column->addLayout(buttons);

    connect(list_, &QTreeWidget::currentItemChanged, this,
            [this] { restart_->setEnabled(!selected_server().isEmpty()); });
    connect(restart_, &QPushButton::clicked, this, &McpServersPage::restart_selected);
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
    const QString keep = selected_server();
    list_->clear();
    for (const McpServerInfo& server : list.servers) {
        QTreeWidgetItem* item = server_item(server);
        list_->addTopLevelItem(item);
        if (item->text(0) == keep) list_->setCurrentItem(item);
    }
    QStringList problems;
    for (const std::string& problem : list.problems)
        problems << QString::fromStdString(problem);
    problems_->setText(problems.join(QLatin1Char('\n')));
    problems_->setVisible(!problems.isEmpty());
    empty_->setVisible(list.servers.empty());
    restart_->setEnabled(!selected_server().isEmpty());
    emit listed();
}

QString McpServersPage::selected_server() const {
    const QTreeWidgetItem* item = list_->currentItem();
    return item ? item->data(0, name_role).toString() : QString();
}

void McpServersPage::restart_selected() {
    const QString name = selected_server();
    if (name.isEmpty()) return;
    // The answer is the list after the restart began; mcp.changed follows as the server
    // comes up or fails.
    core_.call(McpRestartParams{name.toStdString()}, this,
               [this](const client::Typed<McpRestartParams>& list) {
                   if (!list) {
                       problems_->setText(QString::fromStdString(list.error().message));
                       problems_->show();
                       return;
                   }
                   show_servers(*list);
               });
}

} // namespace rio::gui
