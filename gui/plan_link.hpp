// What a link in a plan points at. A plan may name the project's files — `[greet.py](greet.py)`,
// `[the loop](src/app.cpp:42)`, GitHub's `src/app.cpp#L42` — and those open in the editor, at
// the line when one is given; paths are the project's (relative to its folder, or absolute
// inside it). A link to a heading of the plan scrolls to it. Links to the web, and anything
// else with a scheme, stay inert: a plan never opens a browser. Pure, so the rules are tested
// without a window.
#pragma once

#include <QString>

namespace rio::gui {

struct PlanLink {
    enum class Kind {
        file,    // a file of the project: `path`, at `line` when it is not 0
        anchor,  // a heading of the plan itself
        outside, // a path that leaves the project: refused, and said so
        inert,   // the web, other schemes, no project open, nothing at all
    };
    Kind kind = Kind::inert;
    QString path;   // file: project-relative; outside: as the link gave it
    int line = 0;   // file: from 1, or 0 for none
    QString anchor; // anchor: decoded
};

// `root` is the open project's folder (absolute), "" when none is open.
PlanLink resolve_plan_link(const QString& href, const QString& root);

} // namespace rio::gui
