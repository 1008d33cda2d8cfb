#include "io/exit_deadline.hpp"

namespace rio {

ExitDeadline::~ExitDeadline() {
    {
        std::lock_guard lock(mutex_);
        done_ = true;
    }
    done_changed_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void ExitDeadline::arm(std::chrono::milliseconds after) {
    if (thread_.joinable()) return;
    thread_ = std::thread([this, after] {
        std::unique_lock lock(mutex_);
        if (!done_changed_.wait_for(lock, after, [this] { return done_; })) io_.stop();
    });
}

} // namespace rio
