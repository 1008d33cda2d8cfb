#include "gui/file_tree.hpp"

#include "gui/core_client.hpp"

#include <QHeaderView>
#include <QSet>

namespace rio::gui {
namespace {

std::vector<FileEntry> entries_from(const FsListResult& listing) {
    std::vector<FileEntry> out;
    for (const DirEntryInfo& e : listing.entries) {
        FileEntry entry;
        entry.name = QString::fromStdString(e.name);
        if (entry.name == QLatin1String(".git")) continue; // git's own, at any depth
        entry.type = e.type == EntryType::dir    ? FileEntry::Type::dir
                     : e.type == EntryType::file ? FileEntry::Type::file
                                                 : FileEntry::Type::other;
        entry.link = e.link.value_or(false);
        out.push_back(std::move(entry));
    }
    return out;
}

QString folder_of(const QString& path) {
    const qsizetype slash = path.lastIndexOf(QLatin1Char('/'));
    return slash < 0 ? QString() : path.left(slash);
}

} // namespace

FileTree::FileTree(CoreClient& core, QWidget* parent)
    : QTreeView(parent), core_(core), model_([this](const QString& folder) { list(folder); }) {
    setModel(&model_);
    setHeaderHidden(true);
    setUniformRowHeights(true);
    setAnimated(false);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    header()->setStretchLastSection(true);
    connect(this, &QTreeView::activated, this, [this](const QModelIndex& index) {
        if (index.isValid() && !model_.is_folder(index)) emit file_activated(model_.path_of(index));
    });
}

void FileTree::reload() {
    ++generation_;
    model_.reset_root();
}

void FileTree::clear() {
    ++generation_;
    model_.reset_root(/*list=*/false);
}

void FileTree::list(const QString& folder) {
    const int generation = generation_;
    core_.call(FsListParams{folder.toStdString()}, this,
               [this, folder, generation](const client::Typed<FsListParams>& listing) {
                   if (generation != generation_) return;
                   if (!listing)
                       model_.listing_failed(folder);
                   else
                       model_.set_entries(folder, entries_from(*listing));
               });
}

// A changed path may be a folder standing for everything in it (a large burst is named by
// its folders), so a shown folder is listed again with what is shown below it.
void FileTree::files_changed(const FsChangedEvent& event) {
    QSet<QString> folders, within;
    for (const std::string& path : event.paths) {
        QString changed = QString::fromStdString(path);
        folders.insert(folder_of(changed));
        within.insert(changed);
    }
    for (const QString& folder : folders)
        model_.refresh(folder);
    for (const QString& folder : within)
        if (!folders.contains(folder)) model_.refresh_within(folder);
}

} // namespace rio::gui
