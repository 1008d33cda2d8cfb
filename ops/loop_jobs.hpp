// Work that runs off the core's loop and answers on it (decision 0049): a comparison of two
// large texts or a status over a large repository never holds up the other clients. At most
// max_running jobs run at once (each holds its inputs and its work's memory), the rest wait in
// line up to max_waiting. Once the core is going away (this object destroyed) a job still
// running finishes and its answer is dropped.
#pragma once

#include <asio/io_context.hpp>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>

namespace rio {

class LoopJobs {
public:
    // Runs on a thread of its own; what it returns runs on the loop afterwards.
    using Work = std::function<std::function<void()>()>;

    LoopJobs(asio::io_context& io, std::size_t max_running, std::size_t max_waiting);
    ~LoopJobs();
    LoopJobs(const LoopJobs&) = delete;
    LoopJobs& operator=(const LoopJobs&) = delete;

    // False when max_waiting jobs wait already; the job is then not taken.
    bool start(Work work);

    std::size_t max_waiting() const { return max_waiting_; }

private:
    struct Shared {
        explicit Shared(asio::io_context* loop) : io(loop) {}
        std::mutex mutex;
        asio::io_context* io;
        std::deque<Work> waiting;
        std::size_t running = 0;
    };
    static void work(Shared& shared);

    std::shared_ptr<Shared> shared_;
    std::size_t max_running_, max_waiting_;
};

} // namespace rio
