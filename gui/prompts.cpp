#include "gui/prompts.hpp"

#include <QInputDialog>
#include <QPushButton>

namespace rio::gui {
namespace {

struct Choice {
    QMessageBox::StandardButton button;
    QString text;
};

QMessageBox* prompt(QWidget* parent, QMessageBox::Icon icon, const QString& title,
                    const QString& text, std::initializer_list<Choice> choices,
                    QMessageBox::StandardButton fallback) {
    auto* box = new QMessageBox(icon, title, text, QMessageBox::NoButton, parent);
    for (const Choice& choice : choices)
        box->addButton(choice.button)->setText(choice.text);
    box->setDefaultButton(fallback);
    box->setEscapeButton(QMessageBox::Cancel);
    return box;
}

} // namespace

QMessageBox* unsaved_file_prompt(QWidget* parent, const QString& path) {
    return prompt(parent, QMessageBox::Question, QObject::tr("Unsaved changes"),
                  QObject::tr("Save the changes to %1 before closing it?").arg(path),
                  {{QMessageBox::Save, QObject::tr("&Save")},
                   {QMessageBox::Discard, QObject::tr("Do&n't Save")},
                   {QMessageBox::Cancel, QObject::tr("&Cancel")}},
                  QMessageBox::Save);
}

QMessageBox* unsaved_files_prompt(QWidget* parent, const QStringList& paths) {
    return prompt(parent, QMessageBox::Question, QObject::tr("Unsaved changes"),
                  QObject::tr("%n file(s) have unsaved changes:\n%1\n\nSave them before quitting?",
                              nullptr, static_cast<int>(paths.size()))
                      .arg(paths.join(QLatin1Char('\n'))),
                  {{QMessageBox::Save, QObject::tr("&Save All")},
                   {QMessageBox::Discard, QObject::tr("Do&n't Save")},
                   {QMessageBox::Cancel, QObject::tr("&Cancel")}},
                  QMessageBox::Save);
}

QMessageBox* drop_unsaved_prompt(QWidget* parent, const QString& folder) {
    return prompt(
        parent, QMessageBox::Question, QObject::tr("Unsaved changes"),
        QObject::tr("Some files have unsaved changes. Open %1 and drop them?").arg(folder),
        {{QMessageBox::Discard, QObject::tr("&Drop Changes and Open")},
         {QMessageBox::Cancel, QObject::tr("&Cancel")}},
        QMessageBox::Cancel);
}

QMessageBox* stop_turn_prompt(QWidget* parent, const QString& folder) {
    return prompt(parent, QMessageBox::Question, QObject::tr("The agent is working"),
                  QObject::tr("The agent is still working in this folder. Stop it and open %1?\n\n"
                              "This conversation is saved; opening this folder again continues it.")
                      .arg(folder),
                  {{QMessageBox::Yes, QObject::tr("&Stop and Open")},
                   {QMessageBox::Cancel, QObject::tr("&Cancel")}},
                  QMessageBox::Cancel);
}

QMessageBox* overwrite_changed_prompt(QWidget* parent, const QString& path) {
    return prompt(parent, QMessageBox::Warning, QObject::tr("File changed on disk"),
                  QObject::tr("%1 was changed on disk by another program since it was opened.\n\n"
                              "Overwrite it with the text in the editor?")
                      .arg(path),
                  {{QMessageBox::Save, QObject::tr("&Overwrite")},
                   {QMessageBox::Cancel, QObject::tr("&Cancel")}},
                  QMessageBox::Cancel);
}

QMessageBox* replace_file_prompt(QWidget* parent, const QString& path) {
    return prompt(parent, QMessageBox::Warning, QObject::tr("File exists"),
                  QObject::tr("%1 already exists. Replace it?").arg(path),
                  {{QMessageBox::Save, QObject::tr("&Replace")},
                   {QMessageBox::Cancel, QObject::tr("&Cancel")}},
                  QMessageBox::Cancel);
}

QMessageBox::StandardButton ask(QMessageBox* box) {
    box->exec();
    const QMessageBox::StandardButton pressed = box->standardButton(box->clickedButton());
    delete box;
    return pressed == QMessageBox::NoButton ? QMessageBox::Cancel : pressed;
}

QInputDialog* file_name_prompt(QWidget* parent, const QString& title, const QString& label,
                               const QString& accept, const QString& name) {
    auto* dialog = new QInputDialog(parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(title);
    dialog->setLabelText(label);
    dialog->setTextValue(name);
    dialog->setOkButtonText(accept);
    dialog->setCancelButtonText(QObject::tr("&Cancel"));
    dialog->resize(420, dialog->sizeHint().height());
    return dialog;
}

} // namespace rio::gui
