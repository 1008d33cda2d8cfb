// File ▸ New File and File ▸ Save As: a project-relative name asked for, the file made by the
// core (buffer.create: the core writes it, beneath the project, and opens its buffer), its
// tab shown. Save As writes the current tab's text to the new file and puts that tab in its
// place; the file it came from stays as it is on disk.
#pragma once

#include "protocol/messages.hpp"

#include <QInputDialog>
#include <QObject>
#include <QPointer>

namespace rio::gui {

class CoreClient;
class EditorArea;

class FileCommands : public QObject {
    Q_OBJECT
public:
    FileCommands(CoreClient& core, EditorArea& editors, QWidget& window);

    // Asks for the new file's name, starting in `folder` (project-relative, "" for the top).
    void new_file(const QString& folder);
    // Asks where to save the current tab's text; nothing when no file is open.
    void save_as();
    // The box asking for a name while it is open, for tests.
    QInputDialog* name_prompt() const { return prompt_; }

signals:
    void message(const QString& text); // for the status bar

private:
    void ask_name(const QString& title, const QString& accept, const QString& name,
                  std::function<void(const QString&)> then);
    // buffer.create of `path` (from `from` for Save As); a file that exists is offered for
    // replacing when `from` is given, else refused.
    void create(const QString& path, const QString& from, bool overwrite);
    void created(const BufferState& state, const QString& from);
    QString refusal(const QString& path, const Error& error) const;

    CoreClient& core_;
    EditorArea& editors_;
    QWidget& window_;
    QPointer<QInputDialog> prompt_;
};

} // namespace rio::gui
