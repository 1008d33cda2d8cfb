// A read-only view of Markdown, rendered by rio's Qt painter from the shared document model
// (core/markdown): the plan view, the manual and chat messages all use it. Selectable and
// copyable. Link and anchor state belong to each view: painting one never touches another.
#pragma once

#include "gui/markdown_document.hpp"

#include <QTextBrowser>

namespace rio::gui {

class MarkdownView : public QTextBrowser {
    Q_OBJECT
public:
    // inactive: links are styled as links but a click does nothing (no hand cursor, no
    // navigation) — the plan view. follow: clicks emit link_activated — the manual.
    enum class Links { inactive, follow };

    explicit MarkdownView(Links links, QWidget* parent = nullptr);

    // Parses and renders `markdown`; the view starts at the top.
    void show_markdown(const QString& markdown);
    // Scrolls to a heading by its anchor ("plan-mode"); false when there is none.
    bool scroll_to_anchor(const QString& anchor);
    bool has_anchor(const QString& anchor) const;
    Links links() const { return links_; }
    // Fonts, colours and margins (a chat bubble wants narrower ones); the next show_markdown
    // paints with it.
    const MarkdownLook& look() const { return look_; }
    void set_look(const MarkdownLook& look) { look_ = look; }

signals:
    void link_activated(const QUrl& url); // Links::follow only

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void fit_width();

    Links links_;
    MarkdownLook look_;
};

} // namespace rio::gui
