// Plays a scripted sequence of reports back on the io thread, one handler per report, so a
// cancel can land between any two of them.
#pragma once

#include "providers/provider.hpp"

#include <chrono>
#include <vector>

namespace rio {

// Words keep their following space, so the deltas join back to the exact text.
std::vector<std::string> split_words(std::string_view text);

CancelFn play_reports(asio::io_context& io, std::vector<ProviderReport> reports,
                      ProviderReportFn report, std::chrono::milliseconds delay);

} // namespace rio
