#include "gui/servers_list.hpp"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace rio::gui {
namespace {

constexpr int name_role = Qt::UserRole; // on every item: the server it belongs to

QTreeWidgetItem* row_item(const ServerRow& row) {
    auto* item = new QTreeWidgetItem;
    item->setText(0, row.name);
    item->setText(1, row.from);
    item->setText(2, row.state);
    item->setToolTip(2, row.state);
    item->setData(0, name_role, row.name);
    for (const auto& [name, words] : row.lines) {
        auto* child = new QTreeWidgetItem(item);
        child->setText(0, name);
        child->setText(2, words);
        child->setData(0, name_role, row.name);
    }
    return item;
}

} // namespace

ServersList::ServersList(const QString& note, NoteShown shown, const QString& accessible_name,
                         QWidget* below, QWidget* parent)
    : QWidget(parent), shown_(shown), note_(new QLabel(note)), problems_(new QLabel),
      list_(new QTreeWidget), restart_(new QPushButton(tr("&Restart"))) {
    note_->setWordWrap(true);
    problems_->setWordWrap(true);
    problems_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    problems_->hide();
    list_->setColumnCount(3);
    list_->setHeaderLabels({tr("Server"), tr("From"), tr("State")});
    list_->header()->setStretchLastSection(true);
    list_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    list_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    list_->setRootIsDecorated(false);
    list_->setAccessibleName(accessible_name);
    restart_->setEnabled(false);
    restart_->setToolTip(tr("Stop the selected server and start it again"));

    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(restart_);
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    column->addWidget(note_);
    column->addWidget(problems_);
    column->addWidget(list_, below ? 2 : 1);
    if (below) column->addWidget(below, 1);
    column->addLayout(buttons);

    connect(list_, &QTreeWidget::currentItemChanged, this, [this] {
        restart_->setEnabled(!selected().isEmpty());
        emit selection_changed();
    });
    connect(restart_, &QPushButton::clicked, this, [this] {
        if (const QString name = selected(); !name.isEmpty()) emit restart_asked(name);
    });
}

void ServersList::show_rows(const std::vector<ServerRow>& rows,
                            const std::vector<std::string>& problems) {
    const QString keep = selected();
    list_->clear();
    bool lines = false;
    for (const ServerRow& row : rows) {
        QTreeWidgetItem* item = row_item(row);
        list_->addTopLevelItem(item);
        if (row.name == keep) list_->setCurrentItem(item);
        lines = lines || !row.lines.empty();
    }
    list_->setRootIsDecorated(lines);
    QStringList words;
    for (const std::string& problem : problems)
        words << QString::fromStdString(problem);
    problems_->setText(words.join(QLatin1Char('\n')));
    problems_->setVisible(!words.isEmpty());
    note_->setVisible(shown_ == NoteShown::always || rows.empty());
    restart_->setEnabled(!selected().isEmpty());
}

void ServersList::show_problem(const std::string& message) {
    problems_->setText(QString::fromStdString(message));
    problems_->show();
}

QString ServersList::selected() const {
    const QTreeWidgetItem* item = list_->currentItem();
    return item ? item->data(0, name_role).toString() : QString();
}

} // namespace rio::gui
