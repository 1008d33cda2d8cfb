// A ProviderReport as one line of text, so codec tests compare whole report sequences.
#pragma once

#include "core/agent/provider_contract.hpp"

#include <string>

namespace rio::test {

inline std::string describe(const ProviderReport& r) {
    using Kind = ProviderReport::Kind;
    switch (r.kind) {
    case Kind::delta:
        return "delta:" + r.text;
    case Kind::thinking:
        return "thinking:" + r.text;
    case Kind::tool_call:
        return "tool_call:" + r.call.id + " " + r.call.name + " " + r.call.input.dump();
    case Kind::keep:
        return "keep:" + r.data.dump();
    case Kind::usage:
        return "usage:" + r.data.dump();
    case Kind::done:
        return "done:" + r.stop_reason;
    case Kind::error:
        return "error:" + std::string(to_string(r.code)) + ":" + r.text;
    }
    return "?";
}

} // namespace rio::test
