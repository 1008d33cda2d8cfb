// The compare view (DESIGN §9, §14): two texts of a file side by side — a proposed edit's
// original and proposal, or an applied change's before and after — lines aligned by the
// core's diff.lines hunks, added/removed/changed coloured, scrolling kept in step. A proposed
// edit carries its decision at the foot (EditDecisions; Ctrl+Enter approves, Ctrl+Shift+Enter
// approves the rest of the turn). One centre view at a time: a plan replaces it.
#pragma once

#include "gui/compare_rows.hpp"

#include <QWidget>
#include <vector>

class QsciScintilla;

namespace rio::gui {

class EditDecisions;
class ViewHeader;

class CompareView : public QWidget {
    Q_OBJECT
public:
    explicit CompareView(QWidget* parent = nullptr);

    // What the header says ("Proposed edit — greet.py · original | proposed") and what the
    // sides are called for a screen reader ("Original", "Proposed").
    struct Labels {
        QString heading, left, right;
    };
    // `hunks` is diff.lines' result.hunks for (before, after); `path` picks the colouring.
    void show_compare(const QString& path, const Labels& labels, const QString& before,
                      const QString& after, const std::vector<DiffHunkInfo>& hunks);
    // A proposed edit: its decision at the foot, and the keys. An applied change has none.
    void set_decidable(bool decidable);
    void set_deciding(bool deciding);
    bool decidable() const { return decidable_; }

    // Side by side while two panes have room for about 80 columns each; narrower, one column
    // of the unified diff in the right-hand editor (the left one hidden).
    bool unified() const { return unified_; }

    // For tests: the aligned rows as shown, "" for a padding row.
    QStringList left_lines() const;
    QStringList right_lines() const;
    const std::vector<CompareRow>& rows() const { return rows_; }
    QString header_text() const;
    QsciScintilla* left_editor() const { return left_; }
    QsciScintilla* right_editor() const { return right_; }
    EditDecisions* decisions() const { return decisions_; }

signals:
    void close_requested(); // Esc or ×
    void approve_requested(bool rest_of_turn);
    void reject_requested(const QString& reason);

protected:
    void keyPressEvent(QKeyEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void fill(QsciScintilla& side, const QString& path, bool left);
    void fill_unified(const QString& path);
    void show_rows(); // side by side or unified, as the width allows
    void open_at_first_difference();
    int side_by_side_width() const;
    void keep_in_step(QsciScintilla& one, QsciScintilla& other);
    void share_scroll_width();
    void approve_by_key(bool rest_of_turn);

    ViewHeader* header_;
    EditDecisions* decisions_;
    QsciScintilla* left_;
    QsciScintilla* right_;
    std::vector<CompareRow> rows_;
    bool syncing_ = false; // one side is following the other: do not echo back
    bool decidable_ = false;
    bool deciding_ = false;
    bool unified_ = false;
    bool filled_unified_ = false; // the right-hand editor holds the unified rows
    QString path_;
};

} // namespace rio::gui
