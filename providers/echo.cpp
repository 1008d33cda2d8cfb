// The offline default: answers with the user's own words.
#include "providers/provider.hpp"
#include "providers/streaming.hpp"

namespace rio {

Provider make_echo_provider(asio::io_context& io) {
    Provider provider{"echo", "echo", {}};
    provider.start = [&io](ProviderRequest request, ProviderReportFn report) {
        std::string said;
        if (!request.conversation.empty()) said = request.conversation.back()->text;
        std::string reply = said.empty() ? "(nothing to echo)" : "You said: " + said;
        std::vector<ProviderReport> reports;
        for (std::string& word : split_words(reply))
            reports.push_back(ProviderReport::delta(std::move(word)));
        reports.push_back(ProviderReport::done("end_turn"));
        return play_reports(io, std::move(reports), std::move(report), {});
    };
    return provider;
}

} // namespace rio
