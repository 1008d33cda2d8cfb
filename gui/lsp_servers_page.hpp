// Settings ▸ Language Servers (DESIGN §21): the language servers rio knows, as lsp.list gives
// them and lsp.changed updates them — where each comes from, its state in words (why it
// failed, how to install one that is not found, that an untrusted project's waits for
// trust), the files it serves and, for the selected one, its command and the end of what it
// wrote to stderr. Restart asks the core to stop and start the selected server again.
#pragma once

#include "client/events.hpp"

#include <QWidget>

class QPlainTextEdit;

namespace rio::gui {

class CoreClient;
class ServersList;

class LspServersPage : public QWidget {
    Q_OBJECT
public:
    explicit LspServersPage(CoreClient& core, QWidget* parent = nullptr);

    void refresh(); // lsp.list

    ServersList* servers() const { return servers_; }
    QPlainTextEdit* details() const { return details_; } // command, files, stderr

signals:
    void listed();

private:
    void on_event(const client::CoreEvent& event);
    void show_servers(const LspListResult& list);
    void show_details();
    void restart(const QString& name);

    CoreClient& core_;
    QPlainTextEdit* details_;
    ServersList* servers_;
    LspListResult shown_;
};

} // namespace rio::gui
