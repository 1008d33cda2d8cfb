// A picture of the window once it has settled: for docs and tests (`rio --screenshot FILE`,
// and later `make screenshots`). Works on the offscreen platform.
#pragma once

#include <QString>
#include <functional>

namespace rio::gui {

class MainWindow;

// Waits until the window is settled (MainWindow::settled, twice in a row, so work started by
// an answer counts too), saves it as PNG to `file`, then calls `done` once: true, or false
// with the reason (timeout, the core went away, the file could not be written).
void screenshot_when_settled(MainWindow& window, const QString& file, int timeout_ms,
                             std::function<void(bool ok, const QString& why)> done);

} // namespace rio::gui
