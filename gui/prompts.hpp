// The questions rio asks in a box of their own. Each is built here, with buttons that say
// what they do and an Alt+letter on every one, so the tests can look at each box without
// running it; `ask` runs one and says which button was pressed.
#pragma once

#include <QMessageBox>
#include <QStringList>

class QInputDialog;

namespace rio::gui {

// Closing a tab with unsaved changes: Save / Don't Save / Cancel.
QMessageBox* unsaved_file_prompt(QWidget* parent, const QString& path);
// Quitting with unsaved files: Save All / Don't Save / Cancel (Save All is QMessageBox::Save).
QMessageBox* unsaved_files_prompt(QWidget* parent, const QStringList& paths);
// Opening another folder over unsaved changes: Discard them / Cancel.
QMessageBox* drop_unsaved_prompt(QWidget* parent, const QString& folder);
// Opening a folder while the agent works: Stop and Open (QMessageBox::Yes) / Cancel.
QMessageBox* stop_turn_prompt(QWidget* parent, const QString& folder);
// Saving over a file another program changed: Overwrite (QMessageBox::Save) / Cancel.
QMessageBox* overwrite_changed_prompt(QWidget* parent, const QString& path);
// Save As onto a file that exists: Replace (QMessageBox::Save) / Cancel.
QMessageBox* replace_file_prompt(QWidget* parent, const QString& path);

// Runs the box (modal) and deletes it: the button pressed, Cancel when it was closed.
QMessageBox::StandardButton ask(QMessageBox* box);

// A project-relative file name, asked for in a one-line box (File ▸ New File, Save As):
// `accept` labels the button that goes ahead. Shown with open(), not run: it reports by
// textValueSelected and deletes itself when closed.
QInputDialog* file_name_prompt(QWidget* parent, const QString& title, const QString& label,
                               const QString& accept, const QString& name);

} // namespace rio::gui
