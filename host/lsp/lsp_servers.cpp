#include "host/lsp/lsp_servers.hpp"

#include "core/changed_paths.hpp"
#include "host/files/confine.hpp"
#include "host/files/document_io.hpp"
#include "host/files/files.hpp"
#include "host/store/trust_store.hpp"

#include <algorithm>

namespace rio {

namespace {

constexpr std::string_view project_config = ".rio/lsp.json";

bool same_config(const LspServerConfig& a, const LspServerConfig& b) {
    return a.source == b.source && a.argv == b.argv && a.files == b.files &&
           a.language == b.language && a.initialization_options == b.initialization_options &&
           a.settings == b.settings && a.timeout == b.timeout &&
           a.diagnostics_wait == b.diagnostics_wait && a.change_delay == b.change_delay &&
           a.diagnostics_settle == b.diagnostics_settle && a.sync == b.sync &&
           a.disabled == b.disabled && a.error == b.error;
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

} // namespace rio
