// The window's first paint shows the project as it opens (issue 46 deliver 4): the window
// appears once the core has answered what start-up asked of it — the Files tree's first
// folder, the files reopened — rather than at once with an empty tree and the welcome page,
// painted over ~100 ms later by the tree and the file. A core slow to answer (one over ssh,
// one that cannot start) does not keep the window away: it shows after `wait_ms` regardless.
#pragma once

namespace rio::gui {

class MainWindow;

void show_when_settled(MainWindow& window, int wait_ms);

} // namespace rio::gui
