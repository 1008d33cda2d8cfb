// What a stage hands the loop, written in a test as the wire spells it: a prepared proposal's
// fields ({"path": "a.txt"}), a plan read back ({"edited", "text"}) or a progress report
// ({"step", "status"}), read into the typed ToolDetail by the protocol's own parser.
#pragma once

#include "core/agent/loop.hpp"

namespace rio::test {

inline ToolDetail typed_detail(const RunTool& run, const nlohmann::json& detail) {
    if (detail.is_null()) return {};
    if (run.stage == ToolStage::prepare) {
        nlohmann::json wire = detail;
        wire["kind"] = to_wire(run.kind);
        return wire.get<Proposal>().body;
    }
    if (run.kind == ToolKind::plan)
        return PlanReadBack{detail.value("text", ""), detail.value("edited", false)};
    StepReport step{detail.value("step", std::uint64_t{0}), detail.value("status", "")};
    if (detail.contains("note") && detail["note"].is_string()) step.note = detail["note"];
    return step;
}

} // namespace rio::test
