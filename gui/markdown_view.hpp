// A read-only view of Markdown, rendered by rio's Qt painter from the shared document model
// (core/markdown): the plan view, the manual and chat messages all use it. Selectable and
// copyable. Link and anchor state belong to each view: painting one never touches another.
//
// A long document can be painted progressively (the plan view): show_markdown paints what
// fills the first screen or so, and the rest follows from the event loop a chunk at a time,
// so the first paint does not wait for a 100 KB plan. Whatever needs the whole document —
// Ctrl+End, Select All, finding an anchor — has the rest painted first.
#pragma once

#include "gui/markdown_document.hpp"

#include <QBasicTimer>
#include <QTextBrowser>
#include <functional>
#include <memory>
#include <optional>

namespace rio::gui {

class MarkdownView : public QTextBrowser {
    Q_OBJECT
public:
    // inactive: links are styled as links but a click does nothing (no hand cursor, no
    // navigation) — the plan view. follow: clicks emit link_activated — the manual.
    enum class Links { inactive, follow };

    enum class Painting { whole, progressive };

    explicit MarkdownView(Links links, QWidget* parent = nullptr);
    ~MarkdownView() override;

    // Parses and renders `markdown`; the view starts at the top. A theme change paints it
    // again in the new colours, where it was.
    void show_markdown(const QString& markdown);
    // Shows a document painted elsewhere, in place of what is shown; the view takes it. A
    // theme change asks its painter for another (repaint_needed).
    void show_document(QTextDocument* painted);
    void set_painting(Painting painting) { painting_ = painting; }
    // True while part of the document is still to be painted; finish_painting paints it now.
    bool painting() const { return painter_ != nullptr; }
    void finish_painting();

public slots:
    // The Edit menu's Select All (found by name on whatever has the keyboard) gets all of the
    // document, as Ctrl+A does, the part still to be painted too.
    void selectAll() {
        finish_painting();
        QTextBrowser::selectAll();
    }

public:
    // Scrolls to a heading by its anchor ("plan-mode"); false when there is none.
    bool scroll_to_anchor(const QString& anchor);
    bool has_anchor(const QString& anchor);
    Links links() const { return links_; }
    // Some links act, the others stay inert (the plan view: the project's files act, the web
    // does not): a link `followable` accepts gets the hand cursor and emits link_activated
    // on a click or Enter; any other looks like a link and does nothing. Null: as `links`.
    void set_followable(std::function<bool(const QUrl&)> followable);
    // Fonts, colours and margins (a chat bubble wants narrower ones); the next show_markdown
    // paints with it.
    const MarkdownLook& look() const { return look_; }
    void set_look(const MarkdownLook& look) { look_ = look; }

signals:
    void link_activated(const QUrl& url); // Links::follow only
    void document_shown();                // a new document is in the view
    void repaint_needed();                // the theme changed under a show_document painting

protected:
    void resizeEvent(QResizeEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void timerEvent(QTimerEvent* event) override;

private:
    void adopt(QTextDocument* painted);
    void fit_width(QTextDocument& document);
    void stop_painting();
    void follow_new_colours();

    Links links_;
    std::function<bool(const QUrl&)> followable_;
    std::optional<QString> markdown_; // what show_markdown painted, while it is shown
    MarkdownLook look_;
    Painting painting_ = Painting::whole;
    std::unique_ptr<MarkdownPainter> painter_; // the rest of a progressive painting
    QBasicTimer more_;                         // paints its next chunk
};

} // namespace rio::gui
