#include "gui/lsp_servers_page.hpp"

#include "gui/core_client.hpp"
#include "gui/servers_list.hpp"
#include "text/argv_text.hpp"

#include <QPlainTextEdit>
#include <QVBoxLayout>

namespace rio::gui {
namespace {

QString lsp_source_words(const std::string& source) {
    if (source == "user") return LspServersPage::tr("your lsp.json");
    if (source == "project") return LspServersPage::tr("the project's .rio/lsp.json");
    if (source == "built-in") return LspServersPage::tr("built in");
    return QString::fromStdString(source);
}

QString files_words(const LspServerInfo& server) {
    QStringList globs;
    for (const std::string& glob : server.files)
        globs << QString::fromStdString(glob);
    return globs.join(QStringLiteral(" "));
}

} // namespace

LspServersPage::LspServersPage(CoreClient& core, QWidget* parent)
    : QWidget(parent), core_(core), details_(new QPlainTextEdit),
      servers_(new ServersList(
          tr("Servers start when a file they serve is opened. Add or change them in "
             "~/.config/rio/lsp.json or a trusted project's .rio/lsp.json; F1 ▸ Language "
             "servers."),
          NoteShown::always, tr("Language servers"), details_)) {
    details_->setReadOnly(true);
    details_->setAccessibleName(tr("The selected server's command and output"));
    details_->setLineWrapMode(QPlainTextEdit::NoWrap);
    auto* column = new QVBoxLayout(this);
    column->addWidget(servers_);

    connect(servers_, &ServersList::selection_changed, this, &LspServersPage::show_details);
    connect(servers_, &ServersList::restart_asked, this, &LspServersPage::restart);
    connect(&core_, &CoreClient::core_event, this, &LspServersPage::on_event);
}

void LspServersPage::refresh() {
    core_.call(LspListParams{}, this, [this](const client::Typed<LspListParams>& list) {
        if (list) show_servers(*list);
    });
}

void LspServersPage::on_event(const client::CoreEvent& event) {
    // The event carries the state; a fresh list brings the stderr that moved since.
    if (std::holds_alternative<LspChangedEvent>(event) && isVisible()) refresh();
}

void LspServersPage::show_servers(const LspListResult& list) {
    shown_ = list;
    std::vector<ServerRow> rows;
    for (const LspServerInfo& server : list.servers)
        rows.push_back({QString::fromStdString(server.name),
                        lsp_source_words(server.source),
                        QString::fromStdString(server.words),
                        {}});
    servers_->show_rows(rows, list.problems);
    show_details();
    emit listed();
}

void LspServersPage::show_details() {
    const QString name = servers_->selected();
    for (const LspServerInfo& server : shown_.servers) {
        if (QString::fromStdString(server.name) != name) continue;
        QString text =
            tr("Command: %1\nFiles: %2\nOpen files: %3")
                .arg(QString::fromStdString(argv_text(server.command)), files_words(server))
                .arg(server.documents);
        if (!server.stderr_tail.empty())
            text += tr("\n\nWhat it wrote to stderr last:\n") +
                    QString::fromStdString(server.stderr_tail);
        details_->setPlainText(text);
        return;
    }
    details_->clear();
}

void LspServersPage::restart(const QString& name) {
    core_.call(LspRestartParams{name.toStdString()}, this,
               [this](const client::Typed<LspRestartParams>& list) {
                   if (!list) return servers_->show_problem(list.error().message);
                   show_servers(*list);
               });
}

} // namespace rio::gui
