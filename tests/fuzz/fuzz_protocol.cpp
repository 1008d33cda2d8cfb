// The JSONL framing and the dispatcher with every workspace op registered, on a core with
// no project: whatever bytes a client sends, each complete line gets exactly one response
// line that is itself valid JSON, and nothing throws.
#include "core/dispatch.hpp"
#include "core/workspace.hpp"
#include "ops/ops.hpp"
#include "protocol/json_parse.hpp"
#include "protocol/line_reader.hpp"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static rio::Workspace workspace; // never opened: the ops answer without touching disk
    static rio::Dispatcher dispatcher = [] {
        rio::Dispatcher d;
        static rio::OpContext context{workspace, [](const rio::CoreEvent&) {}, {}};
        rio::register_session_ops(d, context);
        rio::register_project_ops(d, context);
        rio::register_fs_ops(d, context);
        rio::register_buffer_ops(d, context);
        rio::register_diff_ops(d, context);
        return d;
    }();
    rio::LineReader reader(4096);
    std::string_view bytes(reinterpret_cast<const char*>(data), size);
    // Two feeds split where the first byte says, so partial lines are exercised too.
    std::size_t cut = size ? data[0] % (size + 1) : 0;
    auto frames = reader.feed(bytes.substr(0, cut));
    for (auto& f : reader.feed(bytes.substr(cut)))
        frames.push_back(std::move(f));
    for (auto& f : reader.finish())
        frames.push_back(std::move(f));
    for (const rio::Frame& frame : frames) {
        if (frame.oversize) continue;
        int responses = 0;
        dispatcher.handle(frame.line, 1, [&](std::string line) {
            ++responses;
            if (line.empty() || line.back() != '\n' || !rio::parse_json(line)) std::abort();
        });
        if (responses != 1) std::abort();
    }
    return 0;
}
