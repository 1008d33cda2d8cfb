// The agent loop driven as a state machine in a test: inputs in, effects collected, and the
// typed events it emitted read back as the structs the protocol defines. Shared by the loop's
// tests (agent_loop_test) and the context budget's (context_test).
#pragma once

#include "agent_tools/tool_table.hpp"
#include "core/agent/loop.hpp"
#include "tests/unit/typed_detail.hpp"

#include <optional>
#include <string>
#include <vector>

namespace rio::test {

struct LoopHarness {
    AgentLoop loop{tool_specs()};
    Effects out;

    template <typename T> std::vector<T> all() const {
        std::vector<T> found;
        for (const Effect& e : out)
            if (auto* t = std::get_if<T>(&e)) found.push_back(*t);
        return found;
    }
    // Every event of one type the loop emitted, in order.
    template <typename E> std::vector<E> events() const {
        std::vector<E> found;
        for (const EmitEvent& e : all<EmitEvent>())
            if (auto* t = std::get_if<E>(&e.event)) found.push_back(*t);
        return found;
    }
    std::vector<std::string> event_names() const {
        std::vector<std::string> found;
        for (const EmitEvent& e : all<EmitEvent>())
            found.emplace_back(event_name(e.event));
        return found;
    }
    CallProvider last_call() const { return all<CallProvider>().back(); }
    std::uint64_t step() const { return last_call().step; }

    TurnId send(std::string text) { return loop.send(std::move(text), out); }
    void report(ProviderReport r) { loop.on_provider(loop.turn(), step(), std::move(r), out); }
    // The model's answer to the last request: text, then calls, then the end of its message.
    void reply(std::string text, std::vector<ToolCall> calls = {}) {
        if (!text.empty()) report(ProviderReport::delta(text));
        for (ToolCall& c : calls)
            report(ProviderReport::tool_call(c));
        report(ProviderReport::done(calls.empty() ? "end_turn" : "tool_use"));
    }
    // A stage's report on `run`: its content and, written as the wire spells it, its detail.
    void tool_report(const RunTool& run, std::string content, nlohmann::json detail = nullptr,
                     bool is_error = false) {
        loop.on_tool(ToolReport{run.turn,
                                run.call.id,
                                run.stage,
                                is_error,
                                std::move(content),
                                typed_detail(run, detail),
                                {},
                                {}},
                     out);
    }
    Status decide(bool approve, std::optional<std::string> policy = {}, std::string feedback = {}) {
        return loop.decide(
            Decision{loop.turn(),
                     {},
                     approve,
                     std::move(feedback),
                     policy ? std::optional(Wire<ApprovalPolicy>::named(*policy)) : std::nullopt,
                     {},
                     false,
                     false,
                     false,
                     NetworkGrant{false, {}}},
            out);
    }
};

} // namespace rio::test
