// The project's folders as the core lists them: a tree filled one folder at a time, when
// the view first expands it (`fs.list` is asked for by the owner through `list`), and
// merged in place when a folder is listed again, so expanded subfolders stay expanded.
#pragma once

#include <QAbstractItemModel>
#include <QString>
#include <functional>
#include <memory>
#include <vector>

namespace rio::gui {

struct FileEntry {
    QString name;
    enum class Type { dir, file, other } type = Type::file;
    bool link = false;
};

class FileTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    using ListFolder = std::function<void(const QString& path)>; // "" is the project root
    explicit FileTreeModel(ListFolder list, QObject* parent = nullptr);
    ~FileTreeModel() override;

    // Forgets every folder (a project opened or closed); the root is listed again unless
    // `list` is false (then the tree stays empty).
    void reset_root(bool list = true);
    // A folder's listing arrived (entries in the core's order: folders first, then by name).
    void set_entries(const QString& folder, const std::vector<FileEntry>& entries);
    // Listing failed (the folder went away, say): it may be asked for again later.
    void listing_failed(const QString& folder);
    // Lists a folder again if it was listed before; ignored otherwise.
    void refresh(const QString& folder);
    // Lists a folder again, and every folder below it that was listed, if it was listed.
    void refresh_within(const QString& folder);

    bool is_loaded(const QString& folder) const;
    QModelIndex index_of(const QString& path) const; // invalid if not in the tree (yet)
    QString path_of(const QModelIndex& index) const;
    bool is_folder(const QModelIndex& index) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool hasChildren(const QModelIndex& parent = {}) const override;
    bool canFetchMore(const QModelIndex& parent) const override;
    void fetchMore(const QModelIndex& parent) override;

private:
    struct Node;
    Node* node_of(const QModelIndex& index) const;
    Node* find(const QString& path) const;
    QModelIndex index_of(const Node* node) const;
    void request(Node& folder);

    ListFolder list_;
    std::unique_ptr<Node> root_;
};

} // namespace rio::gui
