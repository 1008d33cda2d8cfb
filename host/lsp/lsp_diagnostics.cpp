// LspServers: each file's diagnostics as its server published them, in rio's positions, and
// the agent's bounded wait for a file's after it wrote the file.
#include "host/files/confine.hpp"
#include "host/files/document_io.hpp"
#include "host/files/files.hpp"
#include "host/lsp/lsp_servers.hpp"
#include "host/lsp/lsp_servers_detail.hpp"

#include <algorithm>

namespace rio {

using namespace lsp_detail;

// ---- diagnostics ----

void LspServers::with_lines(LspServer& server, const std::string& uri,
                            const std::filesystem::path& file,
                            const std::function<void(const LineIndex&)>& use) {
    if (const LspDocument* doc = server.document(uri)) return use(LineIndex(doc->text, doc->lines));
    std::string text = text_of(file);
    use(LineIndex(text));
}

std::string LspServers::text_of(const std::filesystem::path& file) {
    if (root_ && workspace_.dir) {
        auto rel = file.lexically_relative(*root_).generic_string();
        if (auto buffer = workspace_.buffers.find(rel); buffer != workspace_.buffers.end())
            return buffer->second.text;
        if (!rel.empty() && rel.rfind("..", 0) != 0)
            if (auto path = confine(workspace_.dir, rel))
                if (auto loaded = load_document(*path)) return loaded->text;
    }
    // Outside the project: read (never written) to place the answer, a FIFO refused unread.
    auto bytes = read_file(file, file.string());
    return bytes ? std::move(*bytes) : std::string();
}

std::optional<SourceLocation> LspServers::locate(LspServer& server, const std::string& uri,
                                                 const LspRange& range) {
    auto file = uri_to_path(uri);
    if (!file) return std::nullopt;
    SourceLocation out;
    std::string rel = root_ ? file->lexically_relative(*root_).generic_string() : std::string();
    out.external = rel.empty() || rel == "." || rel.rfind("..", 0) == 0;
    out.path = out.external ? file->string() : rel;
    with_lines(server, uri, *file, [&](const LineIndex& index) {
        std::tie(out.line, out.column) = rio_position(index, range.start);
        std::tie(out.end_line, out.end_column) = rio_position(index, range.end);
        out.text = excerpt(index.line_text(out.line - 1));
    });
    return out;
}

void LspServers::published(Entry& entry, const LspPublished& published) {
    LspServer& server = *entry.server;
    auto file = uri_to_path(published.uri);
    if (!file) return;
    std::string rel = root_ ? file->lexically_relative(*root_).generic_string() : std::string();
    // Only the project's files are kept: a server may publish for every header of the
    // system, and nothing rio shows is about those.
    if (rel.empty() || rel == "." || rel.rfind("..", 0) == 0) return;
    const std::string& path = rel;
    if (!diagnostics_.count(path) && files_kept(entry.config.name) >= max_files_with_diagnostics)
        return;
    std::vector<DiagnosticInfo> list;
    with_lines(server, published.uri, *file, [&](const LineIndex& index) {
        for (const LspDiagnostic& d : published.diagnostics) {
            auto [line, column] = rio_position(index, d.range.start);
            auto [end_line, end_column] = rio_position(index, d.range.end);
            list.push_back(
                {line, column, end_line, end_column, d.severity, d.message, d.source, d.code});
        }
    });
    std::stable_sort(list.begin(), list.end(),
                     [](const DiagnosticInfo& a, const DiagnosticInfo& b) {
                         int sa = severity_rank(a.severity), sb = severity_rank(b.severity);
                         if (sa != sb) return sa < sb;
                         return std::tie(a.line, a.column) < std::tie(b.line, b.column);
                     });
    if (list.empty())
        diagnostics_.erase(path);
    else
        diagnostics_[path] = {entry.config.name, std::move(list)};
    unsent_.insert(path);
    if (!flush_posted_) {
        flush_posted_ = true;
        asio::post(io_, [this, alive = alive_] {
            if (!*alive) return;
            flush_posted_ = false;
            flush_diagnostics();
        });
    }
    // Without a version it is about the text the server has: the last one sent.
    const LspDocument* doc = server.document(published.uri);
    reported_[published.uri] = published.version.value_or(doc ? doc->sent : 0);
    if (entry.config.diagnostics_settle.count() > 0)
        return settle_later(entry, published.uri, published.version);
    finish_waits(published.uri, entry.config.name, published.version);
}

// The waits end once the server has been quiet about the file for its settle time: each
// publish starts it again.
void LspServers::settle_later(const Entry& entry, const std::string& uri,
                              std::optional<std::int64_t> version) {
    auto& timer = settling_[uri];
    if (!timer) timer = std::make_unique<asio::steady_timer>(io_);
    timer->expires_after(entry.config.diagnostics_settle);
    timer->async_wait(
        [this, alive = alive_, uri, version, name = entry.config.name](std::error_code ec) {
            if (ec || !*alive) return;
            settling_.erase(uri);
            finish_waits(uri, name, version);
        });
}

std::size_t LspServers::files_kept(const std::string& server) const {
    return static_cast<std::size_t>(
        std::count_if(diagnostics_.begin(), diagnostics_.end(),
                      [&](const auto& kept) { return kept.second.server == server; }));
}

void LspServers::flush_diagnostics() {
    if (shut_down_) return;
    std::set<std::string> paths = std::move(unsent_);
    unsent_.clear();
    for (const std::string& path : paths) {
        LspDiagnosticsEvent event;
        event.path = path;
        if (auto it = diagnostics_.find(path); it != diagnostics_.end()) {
            event.server = it->second.server;
            event.diagnostics = it->second.list;
        }
        emit_event(emit_, event);
    }
}

LspDiagnosticsResult LspServers::diagnostics(const std::optional<std::string>& path) const {
    LspDiagnosticsResult result;
    for (const auto& [file, stored] : diagnostics_)
        if (!path || file == *path) result.files.push_back({file, stored.server, stored.list});
    return result;
}

void LspServers::file_diagnostics(const std::string& requested,
                                  std::function<void(Result<LspDiagnosticsResult>)> done) {
    if (!workspace_.dir)
        return post_result<Result<LspDiagnosticsResult>>(
            io_, done, make_error(ErrorCode::no_project, "no project is open"));
    auto path = confine(workspace_.dir, requested);
    if (!path) return post_result<Result<LspDiagnosticsResult>>(io_, done, path.error());
    std::string rel = path->rel;
    await_diagnostics(rel, [this, alive = alive_, rel, done](const LspFileReport& report) {
        if (!*alive) return;
        LspDiagnosticsResult result = diagnostics(rel);
        // Listed without any when its server looked and found none; not listed when no server
        // handles it or its server waits for trust (it never looked).
        using Outcome = LspFileReport::Outcome;
        if (result.files.empty() && !report.server.empty() && report.outcome != Outcome::untrusted)
            result.files.push_back({rel, report.server, {}});
        done(result);
    });
}

// ---- the agent's wait ----

std::uint64_t LspServers::await_diagnostics(const std::string& rel,
                                            std::function<void(LspFileReport)> done) {
    std::uint64_t id = next_wait_++;
    LspFileReport report;
    Entry* entry = entry_for(rel);
    if (entry && entry->held == Held::project && entry->found) {
        report.outcome = LspFileReport::Outcome::untrusted;
        report.server = entry->config.name;
        post_result(io_, std::move(done), std::move(report));
        return 0;
    }
    LspServer* server = entry ? ensure_server(*entry) : nullptr;
    if (!server) {
        post_result(io_, std::move(done), std::move(report));
        return 0;
    }
    report.server = entry->config.name;
    auto opened = open_for_query(rel);
    if (!opened) {
        report.outcome = LspFileReport::Outcome::failed;
        report.why = opened.error().message;
        post_result(io_, std::move(done), std::move(report));
        return 0;
    }
    std::string uri = uri_of(rel);
    server->flush(uri); // the wait is for a report on the newest text
    std::int64_t version = server->document(uri)->version;
    if (auto seen = reported_.find(uri); seen != reported_.end() && seen->second >= version &&
                                         server->state() == ServerState::ready &&
                                         !settling_.count(uri)) {
        report.outcome = LspFileReport::Outcome::reported;
        if (auto it = diagnostics_.find(rel); it != diagnostics_.end())
            report.diagnostics = it->second.list;
        post_result(io_, std::move(done), std::move(report));
        return 0;
    }
    Waiter wait{rel,
                uri,
                entry->config.name,
                server->document(uri)->version,
                std::move(done),
                std::make_unique<asio::steady_timer>(io_)};
    std::chrono::milliseconds bound = entry->config.diagnostics_wait;
    wait.timer->expires_after(bound);
    wait.timer->async_wait([this, alive = alive_, id, bound](std::error_code ec) {
        if (ec || !*alive) return;
        auto it = waits_.find(id);
        if (it == waits_.end()) return;
        LspFileReport late;
        late.outcome = LspFileReport::Outcome::timed_out;
        late.server = it->second.server;
        late.waited_at_most = bound;
        finish_wait(id, std::move(late));
    });
    waits_.emplace(id, std::move(wait));
    return id;
}

void LspServers::cancel_wait(std::uint64_t handle) {
    waits_.erase(handle);
}

void LspServers::finish_waits(const std::string& uri, const std::string& server,
                              std::optional<std::int64_t> version) {
    std::vector<std::uint64_t> ready;
    for (const auto& [id, wait] : waits_)
        if (wait.uri == uri && wait.server == server && (!version || *version >= wait.version))
            ready.push_back(id);
    for (std::uint64_t id : ready) {
        LspFileReport report;
        report.outcome = LspFileReport::Outcome::reported;
        report.server = server;
        if (auto it = diagnostics_.find(waits_[id].rel); it != diagnostics_.end())
            report.diagnostics = it->second.list;
        finish_wait(id, std::move(report));
    }
}

void LspServers::fail_waits(const Entry& entry) {
    if (!entry.server) return;
    ServerState state = entry.server->state();
    if (state != ServerState::failed && state != ServerState::stopped) return;
    std::vector<std::uint64_t> failed;
    for (const auto& [id, wait] : waits_)
        if (wait.server == entry.config.name) failed.push_back(id);
    for (std::uint64_t id : failed) {
        LspFileReport report;
        report.outcome = LspFileReport::Outcome::failed;
        report.server = entry.config.name;
        report.why = info_of(entry).words;
        finish_wait(id, std::move(report));
    }
}

void LspServers::finish_wait(std::uint64_t id, LspFileReport report) {
    auto it = waits_.find(id);
    if (it == waits_.end()) return;
    auto done = std::move(it->second.done);
    waits_.erase(it);
    post_result(io_, std::move(done), std::move(report));
}

} // namespace rio
