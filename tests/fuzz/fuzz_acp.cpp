// rio-acp's side of the editor's wire: any bytes, line by line, into the bridge (JSON-RPC
// parsing, routing, params checks). Sessions cannot start here (the core's address is not
// one), so what is fuzzed is everything before one: each line gets a well-formed answer or
// none.
#include "acp/bridge.hpp"
#include "acp/updates.hpp"

#include <asio/io_context.hpp>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view bytes(reinterpret_cast<const char*>(data), size);
    asio::io_context io;
    rio::acp::BridgeOptions options;
    options.connect = "unix:";
    rio::acp::Bridge bridge(io, options, [](std::string line) {
        // Every answer is one JSON object on one line.
        if (line.empty() || line.back() != '\n' || line.find('\n') != line.size() - 1)
            __builtin_trap();
        if (!rio::Json::accept(line)) __builtin_trap();
    });
    std::size_t at = 0;
    while (at <= bytes.size()) {
        std::size_t nl = bytes.find('\n', at);
        std::string_view line = bytes.substr(at, nl == std::string_view::npos ? nl : nl - at);
        bridge.take(line);
        (void)rio::acp::prompt_text(rio::Json::parse(line, nullptr, false));
        if (nl == std::string_view::npos) break;
        at = nl + 1;
    }
    return 0;
}
