#include "agent_tools/edit_checks.hpp"

#include "agent_tools/diagnostics_words.hpp"

#include <asio/post.hpp>

namespace rio {
namespace {

// What the model can act on in one step; the diagnostics tool lists the rest.
constexpr std::size_t max_named = 10;

std::string joined(const std::string& a, const std::string& b) {
    if (a.empty()) return b;
    if (b.empty()) return a;
    return a + "\n\n" + b;
}

} // namespace

EditChecks::~EditChecks() {
    *alive_ = false;
    forget();
}

void EditChecks::expect(TurnId turn, const std::string& rel) {
    if (!lsp_) return;
    if (turn != turn_) {
        forget();
        turn_ = turn;
    }
    if (auto old = files_.find(rel); old != files_.end()) {
        if (old->second.wait) lsp_->cancel_wait(old->second.wait);
        files_.erase(old);
    }
    File& file = files_[rel];
    // Marked due before asking: a server-less answer comes later, on io, and clears it.
    file.wait = ~std::uint64_t{0};
    std::uint64_t handle =
        lsp_->await_diagnostics(rel, [this, alive = alive_, rel, turn](LspFileReport report) {
            if (!*alive || turn != turn_) return;
            arrived(rel, std::move(report));
        });
    if (auto it = files_.find(rel); it != files_.end() && !it->second.report)
        it->second.wait = handle;
}

void EditChecks::arrived(const std::string& rel, LspFileReport report) {
    auto it = files_.find(rel);
    if (it == files_.end()) return;
    using Outcome = LspFileReport::Outcome;
    if (report.outcome == Outcome::no_server || report.outcome == Outcome::untrusted)
        files_.erase(it); // nothing to say, ever
    else {
        it->second.wait = 0;
        it->second.report = std::move(report);
    }
    finish_settle();
}

std::string EditChecks::take(TurnId turn) {
    if (turn != turn_ || !lsp_) return "";
    std::string words;
    for (auto it = files_.begin(); it != files_.end();) {
        if (!it->second.report) {
            ++it;
            continue;
        }
        words = joined(words, diagnostics_words(it->first, *it->second.report,
                                                lsp_->agent_severity(), max_named));
        it = files_.erase(it);
    }
    return words;
}

void EditChecks::settle(TurnId turn, std::function<void(std::string)> done) {
    if (turn != turn_) {
        asio::post(io_, [done = std::move(done)] { done(""); });
        return;
    }
    settling_ = std::move(done);
    finish_settle();
}

void EditChecks::finish_settle() {
    if (!settling_) return;
    for (const auto& [rel, file] : files_)
        if (!file.report) return; // still due
    std::string words;
    for (const auto& [rel, file] : files_)
        if (problems_at(*file.report, lsp_->agent_severity()) > 0)
            words = joined(words,
                           diagnostics_words(rel, *file.report, lsp_->agent_severity(), max_named));
    files_.clear();
    asio::post(
        io_, [done = std::exchange(settling_, nullptr), words = std::move(words)] { done(words); });
}

void EditChecks::forget() {
    if (lsp_ && *alive_)
        for (const auto& [rel, file] : files_)
            if (file.wait && file.wait != ~std::uint64_t{0}) lsp_->cancel_wait(file.wait);
    files_.clear();
    settling_ = nullptr;
}

} // namespace rio
