// "Changes since the previous plan" painted (DESIGN §13): the revised plan's lines as text,
// each marked as client::mark_revision says — inserted (green, "+"), removed (red, struck
// through, "−"), changed (amber, the words that are new in a stronger shade) — the rest
// plain. Each line is one block, in the order mark_revision gives.
#pragma once

#include "client/plan_revision.hpp"

#include <QColor>

class QTextDocument;

namespace rio::gui {

// The background a line of each mark is painted with (same: none), for tests to look for.
QColor revision_background(client::LineMark mark);
QColor revision_word_background();

void paint_revision(QTextDocument& document, const std::vector<client::MarkedLine>& marks);

} // namespace rio::gui
