// A provider as the host runs it: a name, a model, and a way to start one call that reports
// back asynchronously on the io thread — never from inside start() — until its one terminal
// report, or until it is cancelled, after which it reports nothing.
#pragma once

#include "core/agent/provider_contract.hpp"

#include <asio/io_context.hpp>
#include <functional>
#include <string>
#include <string_view>

namespace rio {

using ProviderReportFn = std::function<void(const ProviderReport&)>;
using CancelFn = std::function<void()>;

struct Provider {
    std::string name;
    std::string model;
    std::function<CancelFn(ProviderRequest, ProviderReportFn)> start;
};

// "echo" or "script:FILE" (DESIGN §11). Unknown names and unreadable scripts are errors.
Result<Provider> make_provider(asio::io_context& io, std::string_view spec);

Provider make_echo_provider(asio::io_context& io);
Result<Provider> make_script_provider(asio::io_context& io, const std::string& path);

} // namespace rio
