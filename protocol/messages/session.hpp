// The session and the project: hello, the project open, trust and its changes.
#pragma once

#include "protocol/messages/common.hpp"

namespace rio {

struct HelloResult {
    int protocol = 0;
    std::string name;
    std::string version;
    std::vector<std::string> ops;
    std::optional<std::string> root;
    std::uint64_t max_line = 0;
};
RIO_FIELDS(HelloResult, protocol, name, version, ops, root, max_line)

struct HelloParams {
    static constexpr std::string_view op = op::session_hello;
    using Result = HelloResult;
    std::optional<std::string> client;
    std::optional<std::string> token; // a TCP listener's (DESIGN §12)
};
RIO_FIELDS(HelloParams, client, token)

// ---- project -------------------------------------------------------------------------

// How the core follows the project's folders for changes other programs make: the event
// fs.watch, and project.info's `watch`.
struct WatchInfo {
    static constexpr std::string_view event = event::fs_watch;
    std::uint64_t folders = 0;          // folders watched
    bool complete = false;              // the first pass over the project is done
    std::optional<std::string> problem; // why some changes made outside rio will not be seen
};
RIO_FIELDS(WatchInfo, folders, complete, problem)

struct ProjectInfo {
    std::optional<std::string> root; // absent: no project is open
    std::optional<std::string> name;
    std::optional<std::uint64_t> buffers;
    std::optional<WatchInfo> watch; // project.info only
};
RIO_FIELDS(ProjectInfo, root, name, buffers, watch)

struct ProjectOpenParams {
    static constexpr std::string_view op = op::project_open;
    using Result = ProjectInfo;
    std::string path;
    std::optional<bool> discard;
};
RIO_FIELDS(ProjectOpenParams, path, discard)

struct ProjectCloseParams {
    static constexpr std::string_view op = op::project_close;
    using Result = Empty;
    std::optional<bool> discard;
};
RIO_FIELDS(ProjectCloseParams, discard)

struct ProjectInfoParams : Empty {
    static constexpr std::string_view op = op::project_info;
    using Result = ProjectInfo;
};

struct TrustedFile {
    std::string path;
    std::string sha256;
    bool trusted = false;
    std::string summary;
};
RIO_FIELDS(TrustedFile, path, sha256, trusted, summary)

struct ProjectTrustState {
    static constexpr std::string_view event = event::project_trust;
    bool trusted = true;
    std::vector<TrustedFile> files;
    // The user's own allow rules, which apply here only once the project is trusted (in
    // words, as the trust question shows them).
    std::vector<std::string> user_rules;
    // What waits for trust (decision 0071): the language servers and the user's MCP servers,
    // by name, that would start here; none start in a project nobody trusted.
    std::vector<std::string> language_servers;
    std::vector<std::string> mcp_servers;
};
RIO_FIELDS(ProjectTrustState, trusted, files, user_rules, language_servers, mcp_servers)

struct ProjectTrustGetParams : Empty {
    static constexpr std::string_view op = op::project_trust_get;
    using Result = ProjectTrustState;
};

// A file as a person was shown it before saying "trust": what project.trust.get listed.
struct ShownFile {
    std::string path;
    std::string sha256;
};
RIO_FIELDS(ShownFile, path, sha256)

struct ProjectTrustSetParams {
    static constexpr std::string_view op = op::project_trust_set;
    using Result = ProjectTrustState;
    bool trust = false;
    // With trust: the files exactly as shown ([] for a project that has none); the project
    // is trusted only if they are still so, else `conflict` with what they are now.
    std::optional<std::vector<ShownFile>> files;
};
RIO_FIELDS(ProjectTrustSetParams, trust, files)

} // namespace rio
