#include "host/lsp/lsp_servers.hpp"

#include "core/changed_paths.hpp"
#include "host/files/confine.hpp"
#include "host/files/document_io.hpp"
#include "host/files/files.hpp"
#include "host/store/trust_store.hpp"
#include "text/utf8.hpp"

#include <algorithm>
#include <asio/post.hpp>

namespace rio {
namespace {

constexpr std::string_view project_config = ".rio/lsp.json";
// Past these a server's answer is a flood: the rest is left out.
constexpr std::size_t max_locations = 1000;
constexpr std::size_t max_symbols = 5000;
// Per server: a trusted server publishing for 5,000 files held the core at ~450 MB (issue 39).
constexpr std::size_t max_files_with_diagnostics = 1000;
constexpr std::size_t excerpt_bytes = 240;

bool same_config(const LspServerConfig& a, const LspServerConfig& b) {
    return a.source == b.source && a.argv == b.argv && a.files == b.files &&
           a.language == b.language && a.initialization_options == b.initialization_options &&
           a.settings == b.settings && a.timeout == b.timeout &&
           a.diagnostics_wait == b.diagnostics_wait && a.change_delay == b.change_delay &&
           a.diagnostics_settle == b.diagnostics_settle && a.sync == b.sync &&
           a.disabled == b.disabled && a.error == b.error;
}

std::string excerpt(std::string_view line) {
    if (line.size() <= excerpt_bytes) return std::string(line);
    std::size_t cut = excerpt_bytes;
    while (cut > 0 && !is_char_boundary(line, cut))
        --cut;
    return std::string(line.substr(0, cut)) + "…";
}

// A position in rio's terms: line from 1, column in bytes.
std::pair<std::uint64_t, std::uint64_t> rio_position(const LineIndex& index, LspPosition p) {
    std::size_t offset = index.offset(p);
    std::size_t line = index.line_of(offset);
    return {line + 1, offset - index.line_start(line)};
}

// Most severe first; a name this build does not know counts as an error.
int severity_rank(const Wire<Severity>& severity) {
    return static_cast<int>(severity.value().value_or(Severity::error));
}

bool at_least(const DiagnosticInfo& d, Severity severity) {
    return severity_rank(d.severity) <= static_cast<int>(severity);
}

std::string seconds_words(std::chrono::milliseconds ms) {
    auto tenths = (ms.count() + 50) / 100;
    std::string n = std::to_string(tenths / 10);
    if (tenths % 10) n += "." + std::to_string(tenths % 10);
    return n + (tenths == 10 ? " second" : " seconds");
}

template <typename T> void post_result(asio::io_context& io, std::function<void(T)> done, T value) {
    asio::post(io, [done = std::move(done), value = std::move(value)] { done(value); });
}

} // namespace

LspServers::LspServers(asio::io_context& io, UserDirs dirs, const Workspace& workspace, Emit emit)
    : io_(io), dirs_(std::move(dirs)), workspace_(workspace), emit_(std::move(emit)) {}

LspServers::~LspServers() {
    *alive_ = false;
}

Emit LspServers::observing(Emit next) {
    return [this, alive = alive_, next = std::move(next)](const CoreEvent& event) {
        // A change of project or trust is announced before what the servers make of it
        // (lsp.changed: they wait for trust, or start).
        if (std::holds_alternative<ProjectChangedEvent>(event) ||
            std::holds_alternative<ProjectTrustState>(event)) {
            next(event);
            if (*alive) observe(event);
            return;
        }
        if (*alive) observe(event);
        next(event);
    };
}

void LspServers::observe(const CoreEvent& event) {
    if (shut_down_) return;
    if (const auto* buffer = std::get_if<BufferChangedEvent>(&event))
        on_buffer(*buffer);
    else if (const auto* files = std::get_if<FsChangedEvent>(&event))
        on_files(files->paths);
    else if (std::holds_alternative<ProjectChangedEvent>(event))
        project_changed();
    else if (std::holds_alternative<ProjectTrustState>(event))
        reload();
}

// ---- configuration ----

LspConfig LspServers::user_config() const {
    LspConfig config;
    config.servers = builtin_lsp_servers();
    std::filesystem::path user = dirs_.config / "lsp.json";
    std::error_code ec;
    if (std::filesystem::exists(user, ec)) {
        auto text = read_file(user, user.string());
        if (text)
            merge_lsp_config(config, *text, "user", user.string());
        else
            config.problems.push_back(text.error().message);
    }
    return config;
}

std::vector<std::string> LspServers::waiting_for_trust() const {
    if (!workspace_.root || current_trust(dirs_, workspace_).trusted) return {};
    std::vector<std::string> names;
    for (const LspServerConfig& server : user_config().servers)
        if (!server.disabled && server.error.empty() && !server.argv.empty() &&
            find_program(server.argv[0]))
            names.push_back(server.name);
    return names;
}

void LspServers::reload() {
    if (shut_down_) return;
    if (workspace_.root != root_) {
        project_changed();
        return;
    }
    LspConfig config = user_config();
    std::vector<LspServerConfig> untrusted;
    bool trusted = true;
    if (workspace_.root) {
        // A project's servers start only while the project is trusted as it is now
        // (decision 0048): its .rio/lsp.json and the programs it names unchanged. No server
        // starts at all until then: each would run with the project's code (decision 0071).
        ProjectTrust trust = current_trust(dirs_, workspace_);
        trusted = trust.trusted;
        for (const PowerFile& power : trust.files) {
            if (power.path != project_config) continue;
            if (trust.trusted) {
                merge_lsp_config(config, power.bytes, "project", project_config);
                continue;
            }
            LspConfig project;
            merge_lsp_config(project, power.bytes, "project", project_config);
            untrusted = std::move(project.servers);
        }
    }
    std::vector<Entry> next;
    for (LspServerConfig& server : config.servers) {
        auto old = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) {
            return trusted && e.server && e.held == Held::no && e.config.name == server.name &&
                   same_config(e.config, server);
        });
        Entry entry;
        if (old != entries_.end()) {
            entry = std::move(*old);
        } else {
            entry.config = std::move(server);
        }
        if (!trusted) entry.held = Held::project;
        entry.found = !entry.config.argv.empty() && find_program(entry.config.argv[0]).has_value();
        next.push_back(std::move(entry));
    }
    for (LspServerConfig& server : untrusted) {
        bool shadowed = std::any_of(next.begin(), next.end(),
                                    [&](const Entry& e) { return e.config.name == server.name; });
        if (shadowed) {
            config.problems.push_back(std::string(project_config) + " is not trusted: its \"" +
                                      server.name + "\" entry is not used");
            continue;
        }
        Entry entry;
        entry.config = std::move(server);
        entry.held = Held::project_file;
        next.push_back(std::move(entry));
    }
    config_ = std::move(config);
    entries_ = std::move(next); // servers left in the old list stop with it
    // Open buffers a new or changed entry serves are opened in it.
    for (const auto& [rel, doc] : workspace_.buffers) {
        Entry* entry = entry_for(rel);
        if (!entry) continue;
        std::string uri = uri_of(rel);
        if (entry->server && entry->server->document(uri)) continue;
        if (LspServer* server = ensure_server(*entry))
            server->open(uri, rel, language_id(entry->config, rel), doc.text, true);
    }
    changed();
}

void LspServers::project_changed() {
    for (auto& [path, stored] : diagnostics_)
        unsent_.insert(path);
    diagnostics_.clear();
    reported_.clear();
    settling_.clear();
    std::vector<std::uint64_t> waiting;
    for (const auto& [id, wait] : waits_)
        waiting.push_back(id);
    for (std::uint64_t id : waiting) {
        LspFileReport report;
        report.outcome = LspFileReport::Outcome::failed;
        report.server = waits_[id].server;
        report.why = "the project closed";
        finish_wait(id, std::move(report));
    }
    entries_.clear();
    root_ = workspace_.root;
    reload();
    flush_diagnostics();
}

void LspServers::shutdown() {
    shut_down_ = true;
    waits_.clear();
    entries_.clear();
}

Result<LspListResult> LspServers::restart(const std::string& name) {
    reload();
    auto it = std::find_if(entries_.begin(), entries_.end(),
                           [&](const Entry& e) { return e.config.name == name; });
    if (it == entries_.end())
        return make_error(ErrorCode::not_found,
                          "no language server named '" + name + "' is configured");
    if (it->held == Held::project_file)
        return make_error(ErrorCode::refused,
                          "'" + name + "' comes from the project's " + std::string(project_config) +
                              ", which is not trusted; trust it (project.trust.set) to start it");
    if (it->held == Held::project)
        return make_error(ErrorCode::refused,
                          "language servers start when you trust this project (project.trust.set): "
                          "they would run its code");
    if (it->server) {
        it->server->start();
    } else if (LspServer* server = ensure_server(*it)) {
        for (const auto& [rel, doc] : workspace_.buffers)
            if (it->config.handles(rel))
                server->open(uri_of(rel), rel, language_id(it->config, rel), doc.text, true);
    }
    return list();
}

LspServers::Entry* LspServers::entry_for(std::string_view rel) {
    for (Entry& entry : entries_)
        if (!entry.config.disabled && entry.config.handles(rel)) return &entry;
    return nullptr;
}

LspServer* LspServers::ensure_server(Entry& entry) {
    if (entry.server) return entry.server.get();
    if (entry.held != Held::no || !entry.found || entry.config.disabled || !root_) return nullptr;
    std::string name = entry.config.name;
    auto alive = alive_;
    LspServer::Handlers handlers{[this, alive, name] {
                                     if (!*alive || shut_down_) return;
                                     for (Entry& e : entries_)
                                         if (e.config.name == name) fail_waits(e);
                                     changed();
                                 },
                                 [this, alive, name](const LspPublished& p) {
                                     if (!*alive || shut_down_) return;
                                     for (Entry& e : entries_)
                                         if (e.config.name == name && e.server) published(e, p);
                                 }};
    entry.server = std::make_unique<LspServer>(io_, entry.config, *root_, std::move(handlers));
    entry.server->start();
    return entry.server.get();
}

std::string LspServers::uri_of(const std::string& rel) const {
    return root_ ? path_to_uri(*root_ / rel) : std::string();
}

// ---- following the core ----

void LspServers::on_buffer(const BufferChangedEvent& event) {
    const std::string& rel = event.path;
    Entry* entry = entry_for(rel);
    if (!entry) return;
    std::string uri = uri_of(rel);
    auto buffer = workspace_.buffers.find(rel);
    LspServer* server = entry->server.get();
    const LspDocument* doc = server ? server->document(uri) : nullptr;
    if (event.is(BufferChange::closed)) {
        if (!doc) return;
        server->close(uri);
        reported_.erase(uri);
        if (diagnostics_.erase(rel)) {
            unsent_.insert(rel);
            flush_diagnostics();
        }
        return;
    }
    if (event.is(BufferChange::disk_changed) || buffer == workspace_.buffers.end()) return;
    const std::string& text = buffer->second.text;
    if (!doc || event.is(BufferChange::opened)) {
        if ((server = ensure_server(*entry)))
            server->open(uri, rel, language_id(entry->config, rel), text, true);
        return;
    }
    if (event.is(BufferChange::edited) && event.start && event.end && event.text)
        server->change(uri, *event.start, *event.end, *event.text);
    doc = server->document(uri);
    if (doc->text.size() != text.size() || (!event.is(BufferChange::edited) && doc->text != text))
        server->replace(uri, text);
    if (event.is(BufferChange::saved)) server->save(uri);
}

void LspServers::on_files(const std::vector<std::string>& paths) {
    for (Entry& entry : entries_) {
        if (!entry.server) continue;
        std::vector<std::pair<std::string, std::string>> docs; // uri, rel
        for (const auto& [uri, doc] : entry.server->documents())
            if (!doc.buffer && changed_covers(paths, doc.rel)) docs.emplace_back(uri, doc.rel);
        for (const auto& [uri, rel] : docs) {
            Result<Document> loaded = make_error(ErrorCode::no_project, "no project");
            if (workspace_.dir)
                if (auto path = confine(workspace_.dir, rel)) loaded = load_document(*path);
            if (!loaded) { // gone, or no longer text rio reads
                entry.server->close(uri);
                if (diagnostics_.erase(rel)) unsent_.insert(rel);
                continue;
            }
            if (entry.server->document(uri)->text != loaded->text)
                entry.server->replace(uri, std::move(loaded->text));
        }
    }
    flush_diagnostics();
}

Result<LspServer*> LspServers::open_for_query(const std::string& requested) {
    if (!workspace_.dir) return make_error(ErrorCode::no_project, "no project is open");
    auto path = confine(workspace_.dir, requested);
    if (!path) return path.error();
    const std::string& rel = path->rel;
    Entry* entry = entry_for(rel);
    if (!entry) return make_error(ErrorCode::not_found, "no language server handles " + rel);
    LspServerInfo info = info_of(*entry);
    if (!entry->server && info.state != ServerState::idle)
        return make_error(ErrorCode::not_found, entry->config.name + " is " + info.words);
    LspServer* server = ensure_server(*entry);
    if (!server) return make_error(ErrorCode::not_found, entry->config.name + " is " + info.words);
    if (server->state() == ServerState::failed || server->state() == ServerState::stopped)
        return make_error(ErrorCode::server,
                          entry->config.name + " is " + std::string(to_wire(server->state())) +
                              (server->error().empty() ? "" : ": " + server->error()));
    std::string uri = uri_of(rel);
    if (server->document(uri)) return server;
    if (auto buffer = workspace_.buffers.find(rel); buffer != workspace_.buffers.end()) {
        server->open(uri, rel, language_id(entry->config, rel), buffer->second.text, true);
        return server;
    }
    auto loaded = load_document(*path);
    if (!loaded) return loaded.error();
    server->open(uri, rel, language_id(entry->config, rel), std::move(loaded->text), false);
    return server;
}

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

// ---- queries ----

void LspServers::position_request(const std::string& method, const std::string& path,
                                  std::uint64_t line, std::uint64_t column,
                                  std::function<void(Result<Json>, LspServer*)> then,
                                  std::function<void(Error)> failed) {
    auto fail_later = [this, failed](Error e) {
        asio::post(io_, [failed, e = std::move(e)] { failed(e); });
    };
    auto opened = open_for_query(path);
    if (!opened) return fail_later(opened.error());
    LspServer* server = *opened;
    auto rel = confine(workspace_.dir, path)->rel;
    std::string uri = uri_of(rel);
    const LspDocument* doc = server->document(uri);
    LineIndex index(doc->text, doc->lines);
    if (line == 0 || line > index.lines())
        return fail_later(make_error(ErrorCode::bad_request,
                                     "line " + std::to_string(line) + " is outside " + rel + " (" +
                                         std::to_string(index.lines()) + " lines)"));
    std::string_view text = index.line_text(line - 1);
    if (column > text.size())
        return fail_later(
            make_error(ErrorCode::bad_request, "column " + std::to_string(column) +
                                                   " is past the end of line " +
                                                   std::to_string(line) + " of " + rel + " (" +
                                                   std::to_string(text.size()) + " bytes)"));
    std::size_t at = index.line_start(line - 1) + column;
    while (at > 0 && !is_char_boundary(doc->text, at))
        --at;
    LspPosition position = index.position(at);
    Json params{{"textDocument", {{"uri", uri}}},
                {"position", {{"line", position.line}, {"character", position.character}}}};
    if (method == "textDocument/references") params["context"] = {{"includeDeclaration", true}};
    std::string name = server->config().name;
    server->request(method, std::move(params),
                    [this, alive = alive_, name, then, failed](Result<Json> result) {
                        if (!*alive) return;
                        if (!result) return failed(result.error());
                        for (Entry& e : entries_)
                            if (e.config.name == name && e.server)
                                return then(std::move(result), e.server.get());
                        failed(make_error(ErrorCode::server, name + " stopped meanwhile"));
                    });
}

void LspServers::hover(const LspHoverParams& at, HoverDone done) {
    position_request(
        "textDocument/hover", at.path, at.line, at.column,
        [done](Result<Json> result, LspServer*) {
            auto hover = parse_hover(*result);
            done(LspHoverResult{hover ? hover->text : "", hover && hover->markdown});
        },
        [done](Error e) { done(e); });
}

void LspServers::definition(const LspDefinitionParams& at, LocationsDone done) {
    position_request(
        "textDocument/definition", at.path, at.line, at.column,
        [this, done](Result<Json> result, LspServer* server) {
            LspLocationsResult out;
            for (const LspLocation& l : parse_locations(*result, max_locations))
                if (auto place = locate(*server, l.uri, l.range)) out.locations.push_back(*place);
            done(out);
        },
        [done](Error e) { done(e); });
}

void LspServers::references(const LspReferencesParams& at, LocationsDone done) {
    position_request(
        "textDocument/references", at.path, at.line, at.column,
        [this, done](Result<Json> result, LspServer* server) {
            LspLocationsResult out;
            for (const LspLocation& l : parse_locations(*result, max_locations))
                if (auto place = locate(*server, l.uri, l.range)) out.locations.push_back(*place);
            done(out);
        },
        [done](Error e) { done(e); });
}

void LspServers::symbols(const LspSymbolsParams& params, SymbolsDone done) {
    auto to_info = [this](LspServer& server, const LspSymbol& s, const std::string& uri) {
        SymbolInfo info{s.name,
                        std::string(symbol_kind_name(s.kind)),
                        s.detail,
                        s.container,
                        static_cast<std::uint64_t>(s.depth),
                        "",
                        0,
                        0,
                        false};
        if (auto place = locate(server, uri, s.range)) {
            info.path = place->path;
            info.line = place->line;
            info.column = place->column;
            info.external = place->external;
        }
        return info;
    };
    if (params.path) {
        auto opened = open_for_query(*params.path);
        if (!opened) return post_result<Result<LspSymbolsResult>>(io_, done, opened.error());
        std::string uri = uri_of(confine(workspace_.dir, *params.path)->rel);
        std::string name = (*opened)->config().name;
        (*opened)->request("textDocument/documentSymbol", {{"textDocument", {{"uri", uri}}}},
                           [this, alive = alive_, name, uri, done, to_info](Result<Json> result) {
                               if (!*alive) return;
                               if (!result) return done(result.error());
                               LspSymbolsResult out;
                               for (Entry& e : entries_) {
                                   if (e.config.name != name || !e.server) continue;
                                   for (const LspSymbol& s : parse_symbols(*result, max_symbols))
                                       out.symbols.push_back(
                                           to_info(*e.server, s, s.uri.empty() ? uri : s.uri));
                               }
                               done(out);
                           });
        return;
    }
    if (!params.query)
        return post_result<Result<LspSymbolsResult>>(
            io_, done,
            make_error(ErrorCode::bad_request, "params.path or params.query is required"));
    // Every ready server that searches symbols is asked; the answers are joined.
    struct Gather {
        std::size_t waiting = 0;
        LspSymbolsResult out;
    };
    auto gather = std::make_shared<Gather>();
    std::vector<LspServer*> asked;
    for (Entry& e : entries_)
        if (e.server && e.server->state() == ServerState::ready &&
            e.server->capabilities().workspace_symbols)
            asked.push_back(e.server.get());
    if (asked.empty()) return post_result<Result<LspSymbolsResult>>(io_, done, LspSymbolsResult{});
    gather->waiting = asked.size();
    for (LspServer* server : asked) {
        std::string name = server->config().name;
        server->request(
            "workspace/symbol", {{"query", *params.query}},
            [this, alive = alive_, name, gather, done, to_info](Result<Json> result) {
                if (!*alive) return;
                if (result)
                    for (Entry& e : entries_)
                        if (e.config.name == name && e.server)
                            for (const LspSymbol& s : parse_symbols(*result, max_symbols))
                                gather->out.symbols.push_back(to_info(*e.server, s, s.uri));
                if (--gather->waiting == 0) done(gather->out);
            });
    }
}

// ---- listing ----

LspServerInfo LspServers::info_of(const Entry& entry) const {
    const LspServerConfig& c = entry.config;
    LspServerInfo info;
    info.name = c.name;
    info.source = c.source;
    info.command = c.argv;
    info.files = c.files;
    if (entry.held == Held::project_file) {
        info.state = ServerState::untrusted;
        info.words = "untrusted: the project's " + std::string(project_config) +
                     " is not trusted; trusting it starts this server";
    } else if (entry.held == Held::project && !c.disabled && entry.found) {
        info.state = ServerState::untrusted;
        info.words = "untrusted: language servers start when you trust this project";
    } else if (c.disabled) {
        info.state = ServerState::disabled;
        info.words = "disabled";
    } else if (!c.error.empty()) {
        info.state = ServerState::failed;
        info.error = c.error;
        info.words = "failed: " + c.error;
    } else if (!entry.found) {
        info.state = ServerState::not_found;
        info.hint = c.install_hint.empty() ? "put " + c.argv.at(0) + " on PATH" : c.install_hint;
        info.words = "not found: " + *info.hint;
    } else if (!entry.server) {
        info.state = ServerState::idle;
        info.words = "idle: starts when a file it serves is opened";
    } else {
        const LspServer& s = *entry.server;
        info.state = s.state();
        if (!s.error().empty()) info.error = s.error();
        info.words = info.state.name() + (s.error().empty() ? "" : ": " + s.error());
        info.documents = s.documents().size();
        info.stderr_tail = to_valid_utf8(s.stderr_tail());
    }
    return info;
}

LspListResult LspServers::snapshot() const {
    LspListResult result;
    for (const Entry& entry : entries_)
        result.servers.push_back(info_of(entry));
    result.problems = config_.problems;
    return result;
}

void LspServers::changed() {
    if (shut_down_) return;
    LspListResult now = snapshot();
    // stderr moves all the time; a change of state, words or documents is what is announced.
    auto without_stderr = [](LspListResult r) {
        for (LspServerInfo& s : r.servers)
            s.stderr_tail.clear();
        return Json(r);
    };
    if (without_stderr(now) == without_stderr(announced_)) return;
    announced_ = now;
    // The list the core starts with is no news: nobody has heard another yet, and a client's
    // first line from a fresh core is the answer to its first request.
    if (std::exchange(first_list_, false)) return;
    LspChangedEvent event;
    static_cast<LspListResult&>(event) = std::move(now);
    emit_event(emit_, event);
}

// ---- the agent's words ----

std::size_t problems_at(const LspFileReport& report, Severity severity) {
    if (report.outcome != LspFileReport::Outcome::reported) return 0;
    return static_cast<std::size_t>(
        std::count_if(report.diagnostics.begin(), report.diagnostics.end(),
                      [&](const DiagnosticInfo& d) { return at_least(d, severity); }));
}

std::string diagnostics_words(const std::string& rel, const LspFileReport& report,
                              Severity severity, std::size_t max) {
    using Outcome = LspFileReport::Outcome;
    switch (report.outcome) {
    case Outcome::no_server:
    case Outcome::untrusted:
        return "";
    case Outcome::failed:
        return report.server + " could not check " + rel + " (" + report.why + ").";
    case Outcome::timed_out:
        return report.server + " had not reported on " + rel + " within " +
               seconds_words(report.waited_at_most) + ".";
    case Outcome::reported:
        break;
    }
    std::vector<const DiagnosticInfo*> shown;
    for (const DiagnosticInfo& d : report.diagnostics)
        if (at_least(d, severity)) shown.push_back(&d);
    std::string what = severity == Severity::error ? "errors" : "problems";
    if (shown.empty()) return report.server + " reports no " + what + " in " + rel + ".";
    std::string out = report.server + " reports " + std::to_string(shown.size()) + " " +
                      (shown.size() == 1 ? what.substr(0, what.size() - 1) : what) + " in " + rel +
                      ":";
    for (std::size_t i = 0; i < shown.size() && i < max; ++i) {
        const DiagnosticInfo& d = *shown[i];
        out += "\n" + rel + ":" + std::to_string(d.line) + ":" + std::to_string(d.column + 1) +
               ": " + d.severity.name() + ": " + d.message;
        if (!d.source.empty() || !d.code.empty())
            out += " [" + d.source + (d.source.empty() || d.code.empty() ? "" : " ") + d.code + "]";
    }
    if (shown.size() > max) out += "\n… and " + std::to_string(shown.size() - max) + " more";
    return out;
}

} // namespace rio
