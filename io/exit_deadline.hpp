// Ends io.run() a fixed time after shutdown began, whatever is still pending — a command
// that ignores SIGTERM, a model list request on a slow network: a core asked to exit exits.
// A thread rather than a timer, which would itself keep io.run() going.
#pragma once

#include <asio/io_context.hpp>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace rio {

class ExitDeadline {
public:
    explicit ExitDeadline(asio::io_context& io) : io_(io) {}
    ~ExitDeadline();
    ExitDeadline(const ExitDeadline&) = delete;
    ExitDeadline& operator=(const ExitDeadline&) = delete;

    // From then on io.run() returns within `after`. Arming again does nothing.
    void arm(std::chrono::milliseconds after);

private:
    asio::io_context& io_;
    std::mutex mutex_;
    std::condition_variable done_changed_;
    bool done_ = false;
    std::thread thread_;
};

} // namespace rio
