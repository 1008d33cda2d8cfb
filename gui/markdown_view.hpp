// A read-only view of Markdown, rendered by rio's Qt painter from the shared document model
// (core/markdown): the plan view, the manual and chat messages all use it. Selectable and
// copyable. Link and anchor state belong to each view: painting one never touches another.
#pragma once

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

signals:
    void link_activated(const QUrl& url); // Links::follow only

private:
    Links links_;
};

} // namespace rio::gui
