#include "gui/editor_diagnostics.hpp"

#include <QColor>
#include <Qsci/qsciscintilla.h>
#include <algorithm>

namespace rio::gui {
namespace {

// The symbol margin's dots, one marker per severity.
constexpr int diagnostic_margin = 1;
constexpr int margin_width = 12;

struct Look {
    int indicator;
    QColor colour;
};

Look look_of(int indicator) {
    switch (indicator) {
    case error_indicator:
        return {indicator, QColor(0xE5, 0x14, 0x00)};
    case warning_indicator:
        return {indicator, QColor(0xBF, 0x88, 0x03)};
    default:
        return {note_indicator, QColor(0x1A, 0x85, 0xFF)};
    }
}

void set_up(QsciScintilla& editor) {
    if (editor.property("rio_diagnostics").toBool()) return;
    editor.setProperty("rio_diagnostics", true);
    unsigned mask = 0;
    for (int indicator : {error_indicator, warning_indicator, note_indicator}) {
        Look look = look_of(indicator);
        auto number = static_cast<unsigned long>(indicator);
        editor.SendScintilla(QsciScintilla::SCI_INDICSETSTYLE, number,
                             static_cast<long>(QsciScintilla::INDIC_SQUIGGLEPIXMAP));
        editor.SendScintilla(QsciScintilla::SCI_INDICSETFORE, number, look.colour);
        editor.SendScintilla(QsciScintilla::SCI_INDICSETUNDER, number, static_cast<long>(true));
        editor.markerDefine(QsciScintilla::Circle, indicator);
        editor.setMarkerBackgroundColor(look.colour, indicator);
        editor.setMarkerForegroundColor(look.colour, indicator);
        mask |= 1u << indicator;
    }
    editor.setMarginType(diagnostic_margin, QsciScintilla::SymbolMargin);
    editor.setMarginMarkerMask(diagnostic_margin, static_cast<int>(mask));
}

} // namespace

int indicator_for(const Wire<Severity>& severity) {
    if (severity == Severity::error) return error_indicator;
    if (severity == Severity::warning) return warning_indicator;
    return note_indicator;
}

long editor_position(QsciScintilla& editor, std::uint64_t line, std::uint64_t column) {
    const long last = editor.SendScintilla(QsciScintilla::SCI_GETLINECOUNT) - 1;
    const long row = std::clamp<long>(static_cast<long>(line) - 1, 0, last);
    const long start =
        editor.SendScintilla(QsciScintilla::SCI_POSITIONFROMLINE, static_cast<unsigned long>(row));
    const long end = editor.SendScintilla(QsciScintilla::SCI_GETLINEENDPOSITION,
                                          static_cast<unsigned long>(row));
    if (static_cast<long>(line) - 1 > last) return end;
    return std::clamp<long>(start + static_cast<long>(column), start, end);
}

void draw_diagnostics(QsciScintilla& editor, const std::vector<DiagnosticInfo>& list) {
    set_up(editor);
    const long length = editor.SendScintilla(QsciScintilla::SCI_GETLENGTH);
    for (int indicator : {error_indicator, warning_indicator, note_indicator}) {
        editor.SendScintilla(QsciScintilla::SCI_SETINDICATORCURRENT,
                             static_cast<unsigned long>(indicator));
        editor.SendScintilla(QsciScintilla::SCI_INDICATORCLEARRANGE, 0UL, length);
        editor.markerDeleteAll(indicator);
    }
    // Drawn least severe first, so an error's squiggle is on top where ranges overlap.
    std::vector<const DiagnosticInfo*> ordered;
    for (const DiagnosticInfo& d : list)
        ordered.push_back(&d);
    std::stable_sort(ordered.begin(), ordered.end(), [](const auto* a, const auto* b) {
        return indicator_for(a->severity) > indicator_for(b->severity);
    });
    for (const DiagnosticInfo* d : ordered) {
        const int indicator = indicator_for(d->severity);
        long from = editor_position(editor, d->line, d->column);
        long to = editor_position(editor, d->end_line, d->end_column);
        if (to <= from) { // an empty range marks the character there (or the one before)
            to = editor.SendScintilla(QsciScintilla::SCI_POSITIONAFTER,
                                      static_cast<unsigned long>(from));
            if (to <= from)
                from = editor.SendScintilla(QsciScintilla::SCI_POSITIONBEFORE,
                                            static_cast<unsigned long>(from));
        }
        editor.SendScintilla(QsciScintilla::SCI_SETINDICATORCURRENT,
                             static_cast<unsigned long>(indicator));
        if (to > from)
            editor.SendScintilla(QsciScintilla::SCI_INDICATORFILLRANGE,
                                 static_cast<unsigned long>(from), to - from);
        editor.markerAdd(static_cast<int>(std::max<std::uint64_t>(d->line, 1) - 1), indicator);
    }
    // Kept when the list is empty: the text stays where it is as errors come and go.
    editor.setMarginWidth(diagnostic_margin, margin_width);
}

std::vector<const DiagnosticInfo*>
diagnostics_at(QsciScintilla& editor, const std::vector<DiagnosticInfo>& list, long position) {
    std::vector<const DiagnosticInfo*> out;
    for (const DiagnosticInfo& d : list) {
        long from = editor_position(editor, d.line, d.column);
        long to = editor_position(editor, d.end_line, d.end_column);
        if (position >= from && position <= std::max(to, from + 1)) out.push_back(&d);
    }
    std::stable_sort(out.begin(), out.end(), [](const auto* a, const auto* b) {
        return indicator_for(a->severity) < indicator_for(b->severity);
    });
    return out;
}

} // namespace rio::gui
