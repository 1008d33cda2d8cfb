#include "gui/lsp_servers_page.hpp"

#include "gui/core_client.hpp"
#include "text/argv_text.hpp"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace rio::gui {
namespace {

constexpr int lsp_name_role = Qt::UserRole;

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
    : QWidget(parent), core_(core), problems_(new QLabel), list_(new QTreeWidget),
      details_(new QPlainTextEdit), restart_(new QPushButton(tr("&Restart"))) {
    auto* intro =
        new QLabel(tr("Servers start when a file they serve is opened. Add or change them in "
                      "~/.config/rio/lsp.json or a trusted project's .rio/lsp.json; F1 ▸ Language "
                      "servers."));
    intro->setWordWrap(true);
    problems_->setWordWrap(true);
    problems_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    problems_->hide();
    list_->setColumnCount(3);
    list_->setHeaderLabels({tr("Server"), tr("From"), tr("State")});
    list_->header()->setStretchLastSection(true);
    list_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    list_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    list_->setRootIsDecorated(false);
    list_->setAccessibleName(tr("Language servers"));
    details_->setReadOnly(true);
    details_->setAccessibleName(tr("The selected server's command and output"));
    details_->setLineWrapMode(QPlainTextEdit::NoWrap);
    restart_->setEnabled(false);
    restart_->setToolTip(tr("Stop the selected server and start it again"));

    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(restart_);
    auto* column = new QVBoxLayout(this);
    column->addWidget(intro);
    column->addWidget(problems_);
    column->addWidget(list_, 2);
    column->addWidget(details_, 1);
    column->addLayout(buttons);

    connect(list_, &QTreeWidget::currentItemChanged, this, [this] {
        restart_->setEnabled(!selected_server().isEmpty());
        show_details();
    });
    connect(restart_, &QPushButton::clicked, this, &LspServersPage::restart_selected);
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
    const QString keep = selected_server();
    shown_ = list;
    list_->clear();
    for (const LspServerInfo& server : list.servers) {
        auto* item = new QTreeWidgetItem;
        const QString name = QString::fromStdString(server.name);
        item->setText(0, name);
        item->setText(1, lsp_source_words(server.source));
        item->setText(2, QString::fromStdString(server.words));
        item->setToolTip(2, item->text(2));
        item->setData(0, lsp_name_role, name);
        list_->addTopLevelItem(item);
        if (name == keep) list_->setCurrentItem(item);
    }
    QStringList problems;
    for (const std::string& problem : list.problems)
        problems << QString::fromStdString(problem);
    problems_->setText(problems.join(QLatin1Char('\n')));
    problems_->setVisible(!problems.isEmpty());
    restart_->setEnabled(!selected_server().isEmpty());
    show_details();
    emit listed();
}

void LspServersPage::show_details() {
    const QString name = selected_server();
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

QString LspServersPage::selected_server() const {
    const QTreeWidgetItem* item = list_->currentItem();
    return item ? item->data(0, lsp_name_role).toString() : QString();
}

void LspServersPage::restart_selected() {
    const QString name = selected_server();
    if (name.isEmpty()) return;
    core_.call(LspRestartParams{name.toStdString()}, this,
               [this](const client::Typed<LspRestartParams>& list) {
                   if (!list) {
                       problems_->setText(QString::fromStdString(list.error().message));
                       problems_->show();
                       return;
                   }
                   show_servers(*list);
               });
}

} // namespace rio::gui
