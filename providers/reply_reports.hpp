// What a reply decoder (either wire format) tracks about the reports it has made: whether
// the user has seen output (a retry would then show a second, different reply) and whether
// the one terminal report (done or error) is out.
#pragma once

#include "core/agent/provider_contract.hpp"

#include <string>
#include <utility>
#include <vector>

namespace rio {

struct ReplyReports {
    bool finished = false;
    bool output = false;

    // A delta, thinking or tool call.
    void emit(std::vector<ProviderReport>& out, ProviderReport report) {
        output = true;
        out.push_back(std::move(report));
    }
    // The terminal error: after it the decoder ignores everything.
    void fail(std::vector<ProviderReport>& out, ErrorCode code, std::string message) {
        out.push_back(ProviderReport::error(code, std::move(message)));
        finished = true;
    }
};

} // namespace rio
