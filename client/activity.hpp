// What the agent is doing while a turn runs, in words ("waiting for the model", "reading
// greet.py", "running make test", "waiting for your approval"), folded from the turn's events,
// and how long it has been at it: what rio-cli's busy line and the desktop's working indicator
// say. No clock here; the painters bring their own.
#pragma once

#include "client/events.hpp"

#include <chrono>
#include <string>

namespace rio::client {

class Activity {
public:
    void apply(const CoreEvent& event);
    // "" while nothing runs.
    const std::string& words() const { return words_; }

private:
    std::string words_;
    std::string call_; // the running call's words: what goes on once a decision lets it run
};

// "0s", "42s", "1m 05s", "1h 02m": a turn's running time, as a person reads it at a glance.
std::string elapsed_text(std::chrono::seconds elapsed);

} // namespace rio::client
