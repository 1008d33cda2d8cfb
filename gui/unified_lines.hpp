// A unified diff (an edit card's, from agent.edit_applied) as the lines a card paints: hunk
// headers, removed, added and unchanged lines, and past `max_lines` one line saying how many
// more there are. Pure: no widgets, so the reading is tested on its own.
#pragma once

#include <QString>
#include <vector>

namespace rio::gui {

struct UnifiedLine {
    enum class Kind { hunk, removed, added, same, more };
    Kind kind = Kind::same;
    QString text; // as shown: "@@ -4,7 +4,8 @@", "-line 7", "+LINE 7", " line 8", "… 12 more lines"
};

// The file headers (--- a/…, +++ b/…) are left out: the card names the file.
std::vector<UnifiedLine> unified_lines(const QString& diff, int max_lines);

} // namespace rio::gui
