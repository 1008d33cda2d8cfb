#include "gui/file_tree_model.hpp"

#include "gui/file_icons.hpp"

#include <algorithm>

namespace rio::gui {

struct FileTreeModel::Node {
    QString name;
    QString path; // project-relative, "" for the root
    FileEntry::Type type = FileEntry::Type::dir;
    bool link = false;
    bool loaded = false;  // listed at least once
    bool listing = false; // an fs.list is in flight
    Node* parent = nullptr;
    std::vector<std::unique_ptr<Node>> children;

    int row() const {
        if (!parent) return 0;
        const auto& siblings = parent->children;
        auto it = std::find_if(siblings.begin(), siblings.end(),
                               [this](const auto& n) { return n.get() == this; });
        return static_cast<int>(it - siblings.begin());
    }
};

FileTreeModel::FileTreeModel(ListFolder list, QObject* parent)
    : QAbstractItemModel(parent), list_(std::move(list)), root_(std::make_unique<Node>()) {}

FileTreeModel::~FileTreeModel() = default;

void FileTreeModel::reset_root(bool list) {
    beginResetModel();
    root_ = std::make_unique<Node>();
    root_->loaded = !list; // an empty tree that asks for nothing
    endResetModel();
    if (list) request(*root_);
}

void FileTreeModel::request(Node& folder) {
    if (folder.listing) return;
    folder.listing = true;
    list_(folder.path);
}

void FileTreeModel::set_entries(const QString& folder, const std::vector<FileEntry>& entries) {
    Node* node = find(folder);
    if (!node || node->type != FileEntry::Type::dir) return;
    node->listing = false;
    node->loaded = true;
    const QModelIndex parent = index_of(node);
    auto& children = node->children;

    // Drop what is gone (same name and type kept: an expanded folder keeps its subtree).
    auto present = [&entries](const Node& child) {
        return std::any_of(entries.begin(), entries.end(), [&child](const FileEntry& e) {
            return e.name == child.name && e.type == child.type;
        });
    };
    for (int row = static_cast<int>(children.size()) - 1; row >= 0; --row) {
        if (present(*children[static_cast<std::size_t>(row)])) continue;
        beginRemoveRows(parent, row, row);
        children.erase(children.begin() + row);
        endRemoveRows();
    }
    // What is left is in the listing's order; insert the new entries where they belong.
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const FileEntry& entry = entries[i];
        if (i < children.size() && children[i]->name == entry.name &&
            children[i]->type == entry.type) {
            children[i]->link = entry.link;
            continue;
        }
        auto child = std::make_unique<Node>();
        child->name = entry.name;
        child->path = folder.isEmpty() ? entry.name : folder + QLatin1Char('/') + entry.name;
        child->type = entry.type;
        child->link = entry.link;
        child->parent = node;
        const int row = static_cast<int>(std::min(i, children.size()));
        beginInsertRows(parent, row, row);
        children.insert(children.begin() + row, std::move(child));
        endInsertRows();
    }
    // A listing out of the core's usual order would leave extras at the end: drop them.
    if (children.size() > entries.size()) {
        beginRemoveRows(parent, static_cast<int>(entries.size()),
                        static_cast<int>(children.size()) - 1);
        children.resize(entries.size());
        endRemoveRows();
    }
}

void FileTreeModel::listing_failed(const QString& folder) {
    if (Node* node = find(folder)) node->listing = false;
}

void FileTreeModel::refresh(const QString& folder) {
    Node* node = find(folder);
    if (node && node->loaded) request(*node);
}

void FileTreeModel::refresh_within(const QString& folder) {
    Node* node = find(folder);
    if (!node || !node->loaded) return;
    std::vector<Node*> loaded{node};
    for (std::size_t i = 0; i < loaded.size(); ++i)
        for (const auto& child : loaded[i]->children)
            if (child->loaded) loaded.push_back(child.get());
    for (Node* each : loaded)
        request(*each);
}

bool FileTreeModel::is_loaded(const QString& folder) const {
    const Node* node = find(folder);
    return node && node->loaded;
}

FileTreeModel::Node* FileTreeModel::find(const QString& path) const {
    Node* node = root_.get();
    if (path.isEmpty() || path == QLatin1String(".")) return node;
    for (const QString& part : path.split(QLatin1Char('/'), Qt::SkipEmptyParts)) {
        auto it = std::find_if(node->children.begin(), node->children.end(),
                               [&part](const auto& child) { return child->name == part; });
        if (it == node->children.end()) return nullptr;
        node = it->get();
    }
    return node;
}

QModelIndex FileTreeModel::index_of(const QString& path) const {
    const Node* node = find(path);
    return node ? index_of(node) : QModelIndex();
}

QModelIndex FileTreeModel::index_of(const Node* node) const {
    if (!node || node == root_.get()) return {};
    return createIndex(node->row(), 0, const_cast<Node*>(node));
}

FileTreeModel::Node* FileTreeModel::node_of(const QModelIndex& index) const {
    return index.isValid() ? static_cast<Node*>(index.internalPointer()) : root_.get();
}

QString FileTreeModel::path_of(const QModelIndex& index) const {
    return node_of(index)->path;
}

bool FileTreeModel::is_folder(const QModelIndex& index) const {
    return node_of(index)->type == FileEntry::Type::dir;
}

QModelIndex FileTreeModel::index(int row, int column, const QModelIndex& parent) const {
    const Node* node = node_of(parent);
    if (column != 0 || row < 0 || row >= static_cast<int>(node->children.size())) return {};
    return createIndex(row, 0, node->children[static_cast<std::size_t>(row)].get());
}

QModelIndex FileTreeModel::parent(const QModelIndex& child) const {
    if (!child.isValid()) return {};
    return index_of(node_of(child)->parent);
}

int FileTreeModel::rowCount(const QModelIndex& parent) const {
    if (parent.column() > 0) return 0;
    return static_cast<int>(node_of(parent)->children.size());
}

int FileTreeModel::columnCount(const QModelIndex&) const {
    return 1;
}

QVariant FileTreeModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    const Node* node = node_of(index);
    switch (role) {
    case Qt::DisplayRole:
        return node->name;
    case Qt::ToolTipRole:
        return node->link ? node->path + tr(" (link)") : node->path;
    case Qt::DecorationRole:
        return file_icon(node->name, node->type == FileEntry::Type::dir, node->link);
    default:
        return {};
    }
}

Qt::ItemFlags FileTreeModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) return Qt::NoItemFlags;
    Qt::ItemFlags flags = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (node_of(index)->type == FileEntry::Type::dir) return flags;
    return node_of(index)->type == FileEntry::Type::file ? flags | Qt::ItemNeverHasChildren
                                                         : Qt::ItemNeverHasChildren;
}

bool FileTreeModel::hasChildren(const QModelIndex& parent) const {
    const Node* node = node_of(parent);
    if (node->type != FileEntry::Type::dir) return false;
    return !node->loaded || !node->children.empty(); // unlisted folders show an arrow
}

bool FileTreeModel::canFetchMore(const QModelIndex& parent) const {
    const Node* node = node_of(parent);
    return node->type == FileEntry::Type::dir && !node->loaded && !node->listing;
}

void FileTreeModel::fetchMore(const QModelIndex& parent) {
    Node* node = node_of(parent);
    if (node->type == FileEntry::Type::dir && !node->loaded) request(*node);
}

} // namespace rio::gui
