// The compare view (DESIGN §9): an edit proposal side by side — original left, proposed
// right — lines aligned by the core's diff.lines hunks, added/removed/changed coloured,
// scrolling kept in step. One centre view at a time: a plan replaces it.
#pragma once

#include "core/protocol.hpp"

#include <QWidget>

class QLabel;

namespace rio::gui {

class CompareView : public QWidget {
    Q_OBJECT
public:
    explicit CompareView(QWidget* parent = nullptr);

    // `hunks` is diff.lines' result.hunks for (before, after).
    void show_compare(const QString& path, const QString& before, const QString& after,
                      const Json& hunks);

    // For tests: the aligned rows as shown, "" for a padding row.
    QStringList left_lines() const;
    QStringList right_lines() const;

signals:
    void close_requested(); // Esc or ×
};

} // namespace rio::gui
