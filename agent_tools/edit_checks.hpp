// What the language servers said about the files the agent wrote (DESIGN §21, decision
// 0076). An edit never waits for a server: its result goes back at once, each report joins the
// next tool result of the turn, and when the model would end the turn the reports still due
// are waited for once, bounded by each server's diagnostics_wait.
#pragma once

#include "core/agent/loop.hpp"
#include "host/lsp/lsp_servers.hpp"

#include <asio/io_context.hpp>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace rio {

class EditChecks {
public:
    EditChecks(asio::io_context& io, LspServers* lsp) : io_(io), lsp_(lsp) {}
    ~EditChecks();
    EditChecks(const EditChecks&) = delete;
    EditChecks& operator=(const EditChecks&) = delete;

    // `rel` was written in `turn`: its server's report on the new text is awaited. A report
    // still due on the file's older text is dropped; so is everything of an earlier turn.
    void expect(TurnId turn, const std::string& rel);
    // The reports in for `turn` since the last take, in the words a tool result carries them
    // ("" when none): taken, they are not said again.
    std::string take(TurnId turn);
    // Calls `done` (on io, never from inside the call) once every report due for `turn` is
    // in, with the words of those not yet taken that name problems at the agent's severity
    // ("" when none: the turn may end).
    void settle(TurnId turn, std::function<void(std::string)> done);
    // Whether any report for `turn` is still due or not yet taken.
    bool owed(TurnId turn) const { return turn == turn_ && !files_.empty(); }

private:
    struct File {
        std::uint64_t wait = 0;              // the server's wait handle while due
        std::optional<LspFileReport> report; // once in
    };
    void arrived(const std::string& rel, LspFileReport report);
    void finish_settle();
    void forget();

    asio::io_context& io_;
    LspServers* lsp_;
    TurnId turn_ = 0;
    std::map<std::string, File> files_; // by path, in the order rio names them
    std::function<void(std::string)> settling_;
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

} // namespace rio
