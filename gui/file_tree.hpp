// The project tree on the left: a view over FileTreeModel that asks the core for each folder
// as it is expanded, lists changed folders again on `fs.changed`, and starts over on
// `project.changed`. Activating a file (double-click, Enter) asks for it to be opened.
// `.git` (the folder, or a worktree's file) is not shown: it is git's, not the project's.
#pragma once

#include "gui/file_tree_model.hpp"
#include "protocol/wire.hpp"

#include <QTreeView>

namespace rio::gui {

class CoreClient;

class FileTree : public QTreeView {
    Q_OBJECT
public:
    explicit FileTree(CoreClient& core, QWidget* parent = nullptr);

    // Lists the project from its root again (a project was opened or closed).
    void reload();
    // Nothing to show: no project open, or the core is gone.
    void clear();
    // `fs.changed {paths}`: lists each changed path's folder again if it was shown, and a
    // changed folder that is shown with what is shown below it.
    void files_changed(const FsChangedEvent& event);

    FileTreeModel& files() { return model_; }

signals:
    void file_activated(const QString& path);

private:
    void list(const QString& folder);

    CoreClient& core_;
    FileTreeModel model_;
    int generation_ = 0; // answers for an earlier project are dropped
};

} // namespace rio::gui
