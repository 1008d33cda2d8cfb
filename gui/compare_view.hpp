// The compare view (DESIGN §9): an edit proposal side by side — original left, proposed
// right — lines aligned by the core's diff.lines hunks, added/removed/changed coloured,
// scrolling kept in step. One centre view at a time: a plan replaces it.
#pragma once

#include "gui/compare_rows.hpp"
#include "protocol/wire.hpp"

#include <QWidget>
#include <vector>

class QsciScintilla;

namespace rio::gui {

class ViewHeader;

class CompareView : public QWidget {
    Q_OBJECT
public:
    explicit CompareView(QWidget* parent = nullptr);

    // `hunks` is diff.lines' result.hunks for (before, after); `sides` names them in the
    // header ("on disk | yours"), by default "original | proposed".
    void show_compare(const QString& path, const QString& before, const QString& after,
                      const Json& hunks, const QString& sides = QString());

    // For tests: the aligned rows as shown, "" for a padding row.
    QStringList left_lines() const;
    QStringList right_lines() const;
    const std::vector<CompareRow>& rows() const { return rows_; }
    QString header_text() const;
    QsciScintilla* left_editor() const { return left_; }
    QsciScintilla* right_editor() const { return right_; }

signals:
    void close_requested(); // Esc or ×

protected:
    void keyPressEvent(QKeyEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void fill(QsciScintilla& side, const QString& path, bool left);
    void keep_in_step(QsciScintilla& one, QsciScintilla& other);
    void share_scroll_width();

    ViewHeader* header_;
    QsciScintilla* left_;
    QsciScintilla* right_;
    std::vector<CompareRow> rows_;
    bool syncing_ = false; // one side is following the other: do not echo back
};

} // namespace rio::gui
