// Find and replace in a code editor, with Scintilla's own search (SCI_SEARCHINTARGET).
// Replacing goes through the editor as typing does, so the editor reports it to the core
// like any other edit; Replace all is one undo step.
#pragma once

#include "gui/find_target.hpp"

#include <QPointer>
#include <Qsci/qsciscintilla.h>
#include <optional>

namespace rio::gui {

class EditorFind : public FindTarget {
public:
    explicit EditorFind(QsciScintilla& editor) : editor_(&editor) {}

    Found find(const FindOptions& options, Step step) override;
    FindCount count(const FindOptions& options, int cap) override;
    QString selected_text() const override;
    QWidget* widget() const override { return editor_; }
    bool escape_closes_bar() const override { return true; }
    bool can_replace() const override { return editor_ && !editor_->isReadOnly(); }
    Found replace(const FindOptions& options, const QString& with) override;
    int replace_all(const FindOptions& options, const QString& with) override;

private:
    struct Match {
        long start = 0;
        long end = 0;
    };
    // The first non-empty match from `from` towards `to` (backwards when to < from).
    std::optional<Match> search(const FindOptions& options, long from, long to, bool& bad);
    long send(unsigned int message, unsigned long w = 0, long l = 0) const;
    void select(const Match& match);
    void replace_target(const FindOptions& options, const QByteArray& with);

    QPointer<QsciScintilla> editor_;
};

} // namespace rio::gui
