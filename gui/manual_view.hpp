// The manual (DESIGN §9): F1 shows rio's own manual in the centre. Contents on the left,
// the page on the right, rendered by the same Markdown view as plans but with links that
// work: another page (and its heading), a heading of this page, or the web. Back and
// Forward (Alt+Left, Alt+Right) return to where the person was, scroll position included.
// Esc or × closes it. Its view, links and anchors are its own: a plan painted elsewhere never
// moves it.
#pragma once

#include "gui/manual_history.hpp"
#include "gui/manual_pages.hpp"

#include <QWidget>
#include <vector>

class QAction;
class QListWidget;
class QToolButton;
class QUrl;

namespace rio::gui {

class MarkdownView;
class ViewHeader;

class ManualView : public QWidget {
    Q_OBJECT
public:
    // Reads the pages from `dir` and opens the first.
    explicit ManualView(const QString& dir, QWidget* parent = nullptr);

    // Goes to `page` (a file name, "plan-mode.md") at the heading `anchor`, or its top when
    // empty; false, and nothing changes, when the manual has no such page.
    bool open(const QString& page, const QString& anchor = {});
    // What a click on a link in the page does.
    void follow_link(const QUrl& href);
    bool go_back();
    bool go_forward();

    QString current_page() const { return page_; }
    QString header_text() const;
    const std::vector<ManualPage>& pages() const { return pages_; }
    MarkdownView* body() const { return body_; }
    QListWidget* contents() const { return contents_; }
    QToolButton* back_button() const { return back_button_; }
    QToolButton* forward_button() const { return forward_button_; }

signals:
    void close_requested(); // Esc or ×

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    const ManualPage* find(const QString& file) const;
    void show_page(const ManualPage& page);
    void go_to(const ManualPlace& place);
    int scroll() const;
    void update_controls();

    std::vector<ManualPage> pages_;
    ViewHeader* header_;
    QListWidget* contents_;
    MarkdownView* body_;
    QAction* back_;
    QAction* forward_;
    QToolButton* back_button_;
    QToolButton* forward_button_;
    ManualHistory history_;
    QString page_; // the file shown
};

} // namespace rio::gui
