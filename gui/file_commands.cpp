#include "gui/file_commands.hpp"

#include "gui/code_editor.hpp"
#include "gui/core_client.hpp"
#include "gui/editor_area.hpp"
#include "gui/prompts.hpp"

#include <QInputDialog>
#include <QTabBar>

namespace rio::gui {

FileCommands::FileCommands(CoreClient& core, EditorArea& editors, QWidget& window)
    : QObject(&window), core_(core), editors_(editors), window_(window) {}

void FileCommands::new_file(const QString& folder) {
    const QString start = folder.isEmpty() ? QString() : folder + QLatin1Char('/');
    ask_name(tr("New File"), tr("C&reate"), start,
             [this](const QString& path) { create(path, QString(), false); });
}

void FileCommands::save_as() {
    const QString from = editors_.current_path();
    if (from.isEmpty()) {
        emit message(tr("Save As needs an open file"));
        return;
    }
    ask_name(tr("Save As"), tr("&Save"), from, [this, from](const QString& path) {
        if (path == from) {
            editors_.save(from);
            return;
        }
        create(path, from, false);
    });
}

void FileCommands::ask_name(const QString& title, const QString& accept, const QString& name,
                            std::function<void(const QString&)> then) {
    if (prompt_) prompt_->close();
    prompt_ = file_name_prompt(&window_, title, tr("File name, in the project:"), accept, name);
    connect(prompt_, &QInputDialog::textValueSelected, this, [this, then](const QString& text) {
        const QString path = text.trimmed();
        if (path.isEmpty()) return;
        if (path.endsWith(QLatin1Char('/'))) {
            emit message(tr("%1 names a folder; give the file's name after it").arg(path));
            return;
        }
        then(path);
    });
    prompt_->open();
}

void FileCommands::create(const QString& path, const QString& from, bool overwrite) {
    BufferCreateParams params{path.toStdString(), std::nullopt, std::nullopt};
    if (!from.isEmpty()) params.from = from.toStdString();
    if (overwrite) params.overwrite = true;
    core_.call(params, this,
               [this, path, from, overwrite](const client::Typed<BufferCreateParams>& made) {
                   if (made) {
                       created(*made, from);
                       return;
                   }
                   // Saving over a file that exists is a question; a new file never
                   // replaces one. (Asked again, the core still refuses to replace a file
                   // open with unsaved changes, and says so.)
                   if (made.error().code == ErrorCode::conflict && !from.isEmpty() && !overwrite &&
                       ask(replace_file_prompt(&window_, path)) == QMessageBox::Save) {
                       create(path, from, true);
                       return;
                   }
                   emit message(refusal(path, made.error()));
               });
}

void FileCommands::created(const BufferState& state, const QString& from) {
    const QString path = QString::fromStdString(state.path);
    editors_.adopt(state);
    if (from.isEmpty() || from == path) {
        emit message(tr("Created %1").arg(path));
        return;
    }
    // The new file's tab takes the old one's place; the old file keeps what it has on disk,
    // and its unsaved changes now live in the new file.
    const int at = editors_.indexOf(editors_.editor(from));
    if (CodeEditor* editor = editors_.editor(path); editor && at >= 0)
        editors_.tabBar()->moveTab(editors_.indexOf(editor), at);
    core_.call(BufferCloseParams{from.toStdString(), true});
    emit message(tr("Saved as %1; %2 is as it was on disk").arg(path, from));
}

QString FileCommands::refusal(const QString& path, const Error& error) const {
    if (error.code == ErrorCode::refused)
        return tr("%1 is outside the project: rio makes files only inside the project's folder")
            .arg(path);
    return tr("Cannot create %1: %2").arg(path, QString::fromStdString(error.message));
}

} // namespace rio::gui
