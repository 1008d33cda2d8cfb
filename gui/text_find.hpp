// Find in a rich-text view (the plan, the manual) with QTextDocument::find. These views are
// read-only, so there is nothing to replace.
#pragma once

#include "gui/find_target.hpp"

#include <QPointer>
#include <QTextCursor>
#include <QTextEdit>
#include <functional>

namespace rio::gui {

class TextFind : public FindTarget {
public:
    // `before` runs ahead of each search: a view painting progressively paints the rest,
    // so the whole text is searched.
    explicit TextFind(QTextEdit& view, std::function<void()> before = {})
        : view_(&view), before_(std::move(before)) {}

    Found find(const FindOptions& options, Step step) override;
    FindCount count(const FindOptions& options, int cap) override;
    QString selected_text() const override;
    QWidget* widget() const override { return view_; }

private:
    // The first non-empty match after `from` (before it, backwards); null when none.
    QTextCursor search(const FindOptions& options, QTextCursor from, bool backward, bool& bad);

    QPointer<QTextEdit> view_;
    std::function<void()> before_;
};

} // namespace rio::gui
