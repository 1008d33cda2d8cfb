// diff.lines: rio's Myers diff between two texts or project files, for the compare view. The
// diff runs on a thread of its own (decision 0049): two texts of megabytes never hold up the
// other clients, and its caps (core/diff_result) bound what it costs.
#include "core/diff_result.hpp"
#include "host/files/document_io.hpp"
#include "ops/ops.hpp"
#include "ops/project_access.hpp"

#include <asio/post.hpp>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

namespace rio {
namespace {

// A side of a comparison: literal text, or {path, source?: "buffer"|"disk"} where the
// default is the open buffer if there is one, else the file on disk.
Result<std::string> side_text(Workspace& ws, const Json& side, const char* key) {
    if (side.is_string()) return side.get<std::string>();
    if (!side.is_object())
        return make_error(ErrorCode::bad_request,
                          std::string("params.") + key + ": expected a string or {path, source?}");
    const std::optional<DiffSource> source =
        from_wire<DiffSource>(optional_string(side, "source").value_or("auto"));
    if (!source)
        return make_error(ErrorCode::bad_request,
                          std::string("params.") + key + ".source: expected buffer or disk");
    auto path = project_path(ws, require_string(side, "path"));
    if (!path) return path.error();
    if (source == DiffSource::automatic) return live_text(ws, *path);
    if (source == DiffSource::buffer) {
        auto open = ws.buffers.find(path->rel);
        if (open == ws.buffers.end())
            return make_error(ErrorCode::no_buffer, "no open buffer for " + path->rel);
        return open->second.file_text();
    }
    auto doc = load_document(*path);
    if (!doc) return doc.error();
    return doc->file_text();
}

// Comparisons run off the loop, at most max_running at once (each holds its texts and the
// diff's memory), the rest waiting in line up to max_waiting; answers are posted back to the
// loop. Once the core is going away (this object destroyed) a comparison still running
// finishes and its answer is dropped.
class DiffJobs {
public:
    static constexpr std::size_t max_running = 2;
    static constexpr std::size_t max_waiting = 16;

    explicit DiffJobs(asio::io_context& io) : shared_(std::make_shared<Shared>(&io)) {}
    ~DiffJobs() {
        std::lock_guard lock(shared_->mutex);
        shared_->io = nullptr;
        shared_->waiting.clear();
    }
    DiffJobs(const DiffJobs&) = delete;
    DiffJobs& operator=(const DiffJobs&) = delete;

    // False when max_waiting wait already.
    bool start(std::string a, std::string b, const DiffLinesParams& p,
               std::function<void(DiffLinesResult)> done) {
        std::lock_guard lock(shared_->mutex);
        if (shared_->waiting.size() == max_waiting) return false;
        shared_->waiting.push_back(Job{std::move(a), std::move(b), p.max_cost.value_or(0),
                                       p.words.value_or(false), std::move(done)});
        if (shared_->running == max_running) return true;
        ++shared_->running;
        std::thread([shared = shared_] { work(*shared); }).detach();
        return true;
    }

private:
    struct Job {
        std::string a, b;
        std::size_t max_cost = 0;
        bool words = false;
        std::function<void(DiffLinesResult)> done;
    };
    struct Shared {
        explicit Shared(asio::io_context* loop) : io(loop) {}
        std::mutex mutex;
        asio::io_context* io;
        std::deque<Job> waiting;
        std::size_t running = 0;
    };

    static void work(Shared& shared) {
        std::unique_lock lock(shared.mutex);
        while (!shared.waiting.empty()) {
            Job job = std::move(shared.waiting.front());
            shared.waiting.pop_front();
            lock.unlock();
            DiffLinesResult result = diff_result(job.a, job.b, job.max_cost, job.words);
            lock.lock();
            if (shared.io)
                asio::post(*shared.io, [done = std::move(job.done), result = std::move(result)] {
                    done(std::move(result));
                });
        }
        --shared.running;
    }

    std::shared_ptr<Shared> shared_;
};

} // namespace

void register_diff_ops(Dispatcher& dispatcher, OpContext& context) {
    auto jobs = context.io ? std::make_shared<DiffJobs>(*context.io) : nullptr;
    dispatcher.on_async<DiffLinesParams>(
        [&context, jobs](const DiffLinesParams& p,
                         std::function<void(Result<DiffLinesResult>)> reply) {
            auto a = side_text(context.workspace, p.a, "a");
            if (!a) return reply(a.error());
            auto b = side_text(context.workspace, p.b, "b");
            if (!b) return reply(b.error());
            if (!jobs)
                return reply(diff_result(*a, *b, p.max_cost.value_or(0), p.words.value_or(false)));
            if (!jobs->start(std::move(*a), std::move(*b), p,
                             [reply](DiffLinesResult result) { reply(std::move(result)); }))
                reply(make_error(ErrorCode::refused,
                                 std::to_string(DiffJobs::max_waiting) +
                                     " comparisons are waiting already; ask again when one has "
                                     "been answered"));
        });
}

} // namespace rio
