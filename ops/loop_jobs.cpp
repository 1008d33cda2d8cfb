#include "ops/loop_jobs.hpp"

#include <asio/post.hpp>
#include <thread>

namespace rio {

LoopJobs::LoopJobs(asio::io_context& io, std::size_t max_running, std::size_t max_waiting)
    : shared_(std::make_shared<Shared>(&io)), max_running_(max_running), max_waiting_(max_waiting) {
}

LoopJobs::~LoopJobs() {
    std::lock_guard lock(shared_->mutex);
    shared_->io = nullptr;
    shared_->waiting.clear();
}

bool LoopJobs::start(Work work) {
    std::lock_guard lock(shared_->mutex);
    if (shared_->waiting.size() == max_waiting_) return false;
    shared_->waiting.push_back(std::move(work));
    if (shared_->running == max_running_) return true;
    ++shared_->running;
    std::thread([shared = shared_] { LoopJobs::work(*shared); }).detach();
    return true;
}

void LoopJobs::work(Shared& shared) {
    std::unique_lock lock(shared.mutex);
    while (!shared.waiting.empty()) {
        Work job = std::move(shared.waiting.front());
        shared.waiting.pop_front();
        lock.unlock();
        std::function<void()> answer = job();
        lock.lock();
        if (shared.io) asio::post(*shared.io, std::move(answer));
    }
    --shared.running;
}

} // namespace rio
