#include "gui/editor_find.hpp"

#include <algorithm>

namespace rio::gui {
namespace {

// Scintilla's status after a regular expression it could not compile
// (SC_STATUS_WARN_REGEX, which QScintilla's header does not name).
constexpr long status_bad_regex = 1001;

int search_flags(const FindOptions& options) {
    int flags = 0;
    // ECMAScript syntax (\d, \w, groups without backslashes), what people expect today.
    if (options.regex)
        flags |= QsciScintillaBase::SCFIND_REGEXP | QsciScintillaBase::SCFIND_CXX11REGEX;
    if (options.match_case) flags |= QsciScintillaBase::SCFIND_MATCHCASE;
    if (options.whole_word) flags |= QsciScintillaBase::SCFIND_WHOLEWORD;
    return flags;
}

} // namespace

long EditorFind::send(unsigned int message, unsigned long w, long l) const {
    return editor_->SendScintilla(message, w, l);
}

std::optional<EditorFind::Match> EditorFind::search(const FindOptions& options, long from, long to,
                                                    bool& bad) {
    const QByteArray needle = options.text.toUtf8();
    if (needle.isEmpty()) return std::nullopt;
    send(QsciScintillaBase::SCI_SETSEARCHFLAGS, static_cast<unsigned long>(search_flags(options)));
    const bool forward = from <= to;
    while (forward ? from < to : from > to) {
        send(QsciScintillaBase::SCI_SETSTATUS, 0);
        send(QsciScintillaBase::SCI_SETTARGETRANGE, static_cast<unsigned long>(from), to);
        const long at =
            editor_->SendScintilla(QsciScintillaBase::SCI_SEARCHINTARGET,
                                   static_cast<unsigned long>(needle.size()), needle.constData());
        if (send(QsciScintillaBase::SCI_GETSTATUS) == status_bad_regex || at == -2) {
            bad = true;
            return std::nullopt;
        }
        if (at < 0) return std::nullopt;
        const long end = send(QsciScintillaBase::SCI_GETTARGETEND);
        if (end > at) return Match{at, end};
        // An empty match ("^", "x*") selects nothing: look past it.
        const long past = send(forward ? QsciScintillaBase::SCI_POSITIONAFTER
                                       : QsciScintillaBase::SCI_POSITIONBEFORE,
                               static_cast<unsigned long>(at));
        if (past == at) return std::nullopt;
        from = past;
    }
    return std::nullopt;
}

void EditorFind::select(const Match& match) {
    const long line =
        send(QsciScintillaBase::SCI_LINEFROMPOSITION, static_cast<unsigned long>(match.start));
    send(QsciScintillaBase::SCI_ENSUREVISIBLE, static_cast<unsigned long>(line)); // unfolds
    send(QsciScintillaBase::SCI_SETSEL, static_cast<unsigned long>(match.start), match.end);
}

Found EditorFind::find(const FindOptions& options, Step step) {
    if (!editor_ || options.text.isEmpty()) return Found::none;
    const long length = send(QsciScintillaBase::SCI_GETLENGTH);
    const long start = send(QsciScintillaBase::SCI_GETSELECTIONSTART);
    const long end = send(QsciScintillaBase::SCI_GETSELECTIONEND);
    bool bad = false;
    std::optional<Match> match;
    if (step == Step::previous) {
        match = search(options, start, 0, bad);
        if (!match && !bad) match = search(options, length, start, bad);
    } else {
        const long from = step == Step::next ? end : start;
        match = search(options, from, length, bad);
        if (!match && !bad) match = search(options, 0, from, bad);
    }
    if (bad) return Found::bad_pattern;
    if (!match) return Found::none;
    select(*match);
    return Found::match;
}

FindCount EditorFind::count(const FindOptions& options, int cap) {
    FindCount counted;
    if (!editor_ || options.text.isEmpty()) return counted;
    const long length = send(QsciScintillaBase::SCI_GETLENGTH);
    const long start = send(QsciScintillaBase::SCI_GETSELECTIONSTART);
    const long end = send(QsciScintillaBase::SCI_GETSELECTIONEND);
    bool bad = false;
    long from = 0;
    while (std::optional<Match> match = search(options, from, length, bad)) {
        if (counted.total == cap) {
            counted.capped = true;
            break;
        }
        ++counted.total;
        if (match->start == start && match->end == end) counted.current = counted.total;
        from = match->end;
    }
    return counted;
}

QString EditorFind::selected_text() const {
    if (!editor_) return {};
    const QString text = editor_->selectedText();
    return text.contains(QLatin1Char('\n')) || text.contains(QLatin1Char('\r')) ? QString() : text;
}

void EditorFind::replace_target(const FindOptions& options, const QByteArray& with) {
    // With a regular expression the target is still the last search's, so \1 … \9 in the
    // replacement stand for its groups.
    const unsigned int message = options.regex ? QsciScintillaBase::SCI_REPLACETARGETRE
                                               : QsciScintillaBase::SCI_REPLACETARGET;
    editor_->SendScintilla(message, static_cast<unsigned long>(with.size()), with.constData());
}

Found EditorFind::replace(const FindOptions& options, const QString& with) {
    if (!can_replace() || options.text.isEmpty()) return Found::none;
    const long start = send(QsciScintillaBase::SCI_GETSELECTIONSTART);
    const long end = send(QsciScintillaBase::SCI_GETSELECTIONEND);
    bool bad = false;
    // The selection is replaced only when it is a match; the first press finds one.
    const std::optional<Match> here = start < end ? search(options, start, end, bad) : std::nullopt;
    if (bad) return Found::bad_pattern;
    if (here && here->start == start && here->end == end) {
        editor_->beginUndoAction(); // Scintilla would keep the removal and insertion apart
        replace_target(options, with.toUtf8());
        editor_->endUndoAction();
        const long after = send(QsciScintillaBase::SCI_GETTARGETEND);
        send(QsciScintillaBase::SCI_SETSEL, static_cast<unsigned long>(after), after);
    }
    return find(options, Step::next);
}

int EditorFind::replace_all(const FindOptions& options, const QString& with) {
    if (!can_replace() || options.text.isEmpty()) return 0;
    const QByteArray bytes = with.toUtf8();
    int replaced = 0;
    bool bad = false;
    long from = 0;
    editor_->beginUndoAction();
    while (std::optional<Match> match =
               search(options, from, send(QsciScintillaBase::SCI_GETLENGTH), bad)) {
        replace_target(options, bytes);
        from = send(QsciScintillaBase::SCI_GETTARGETEND); // never into what was put in
        ++replaced;
    }
    editor_->endUndoAction();
    if (replaced > 0) send(QsciScintillaBase::SCI_SETSEL, static_cast<unsigned long>(from), from);
    return replaced;
}

} // namespace rio::gui
