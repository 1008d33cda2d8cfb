#include "gui/remote_folder_dialog.hpp"

#include "client/remote_address.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace rio::gui {

RemoteFolderDialog::RemoteFolderDialog(const QStringList& recent, QWidget* parent)
    : QDialog(parent), field_(new QComboBox(this)), problem_(new QLabel(this)) {
    setWindowTitle(tr("Open Remote Folder"));
    auto* intro = new QLabel(
        tr("A folder on another machine, reached with your own ssh (its config, agent and "
           "known hosts). rio-core runs there; this window shows its files and plans.\n"
           "ssh://[user@]host[:port]/absolute/path"),
        this);
    intro->setWordWrap(true);
    field_->setEditable(true);
    field_->setInsertPolicy(QComboBox::NoInsert);
    field_->addItems(recent);
    field_->setCurrentIndex(recent.isEmpty() ? -1 : 0);
    field_->lineEdit()->setPlaceholderText(QStringLiteral("ssh://devbox/home/me/project"));
    field_->setAccessibleName(tr("Remote folder address"));
    field_->setMinimumContentsLength(48);
    problem_->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    open_ = buttons->addButton(tr("Open"), QDialogButtonBox::AcceptRole);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(field_, &QComboBox::editTextChanged, this, &RemoteFolderDialog::check);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(field_);
    layout->addWidget(problem_);
    layout->addWidget(buttons);
    check();
}

QString RemoteFolderDialog::address() const {
    return field_->currentText().trimmed();
}

void RemoteFolderDialog::check() {
    const QString text = address();
    QString why;
    if (text.isEmpty())
        why = QString();
    else if (!client::is_remote_spec(text.toStdString()))
        why = tr("An address starts with ssh://");
    else if (auto parsed = client::parse_remote_address(text.toStdString()); !parsed)
        why = QString::fromStdString(parsed.error().message);
    problem_->setText(why);
    problem_->setVisible(!why.isEmpty());
    open_->setEnabled(!text.isEmpty() && why.isEmpty());
}

} // namespace rio::gui
