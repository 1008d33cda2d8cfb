// The sign of progress beside the chat's Stop button while a turn runs (issue 15): what the
// agent is doing, in words ("Reading greet.py", "Waiting for the model", "Waiting for your
// approval"), and how long the turn has been going, ticking once a second. Empty while
// nothing runs; "Not connected to rio-core" without a core.
#pragma once

#include "client/activity.hpp"

#include <QLabel>
#include <chrono>
#include <functional>

class QTimer;

namespace rio::gui {

class WorkingIndicator : public QLabel {
    Q_OBJECT
public:
    using Clock = std::function<std::chrono::steady_clock::time_point()>;

    explicit WorkingIndicator(QWidget* parent = nullptr);

    // Where the time comes from (a test's own clock).
    void set_clock(Clock clock) { clock_ = std::move(clock); }
    // Each event the chat got, after its session folded it: `busy` is the session's.
    void follow(const client::CoreEvent& event, bool busy);
    void set_offline(bool offline);

    bool running() const { return running_; }
    QString activity() const; // "Reading greet.py"; "" while nothing runs
    QString elapsed() const;  // "12s", "1m 05s"
    void tick();              // the line again, with the time now (the timer's)

    // A running command's words can be any length: the line is cut in the middle to the room
    // there is (the time stays in sight) rather than widening the chat and the window
    // (issue 46: 1200 → 2676 px on a 250-character argument).
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QTimer* timer_;
    Clock clock_;
    client::Activity activity_;
    std::chrono::steady_clock::time_point began_{};
    bool running_ = false;
    bool offline_ = false;
};

} // namespace rio::gui
