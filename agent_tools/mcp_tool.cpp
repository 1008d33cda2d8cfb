// The tools of MCP servers (DESIGN §16), run through host/mcp_servers. prepare names the
// server, the tool and its arguments for the person approving it, and whether an allow rule
// (mcp__server__tool) lets it run unasked; run and apply call the server.
#include "agent_tools/allow_rules.hpp"
#include "agent_tools/tool_table.hpp"
#include "host/mcp/mcp_servers.hpp"

#include <algorithm>

namespace rio {
namespace {

// What the model reads of one result, as with a file read.
constexpr std::size_t max_result_bytes = std::size_t{256} * 1024;

std::string capped(std::string text, std::size_t cap) {
    std::size_t most = std::min(max_result_bytes, cap);
    if (text.size() <= most) return text;
    std::size_t cut = most;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut;
    std::size_t omitted = text.size() - cut;
    text.resize(cut);
    return text + "\n[... " + std::to_string(omitted) +
           " more bytes of the result cut; ask the tool for less (a narrower query or a "
           "page of it) to see the rest ...]";
}

} // namespace

bool is_mcp_tool(std::string_view name) {
    return name.rfind("mcp__", 0) == 0;
}

ToolCancel run_mcp_tool(ToolContext& context, const RunTool& run, const ToolReportFn& report) {
    const std::string& name = run.call.name;
    auto target = context.mcp ? context.mcp->find(name) : std::nullopt;
    if (!target) {
        report(tool_error(run, "The tool " + name +
                                   " is not available now: its MCP server is not running (see "
                                   "mcp.list). Nothing was done."));
        return nullptr;
    }
    if (run.stage == ToolStage::prepare) {
        bool allowed = command_allowed(allow_rules(context), {name}, ".");
        report(tool_ok(
            run, {},
            ProposalBody{McpProposal{target->server, target->tool, run.call.input, allowed}}));
        return nullptr;
    }
    std::string who = target->tool + " of the MCP server \"" + target->server + "\"";
    McpClient* client = target->client;
    // How far a long call got, for every frontend's trace (agent.tool_progress).
    auto progress = [emit = context.emit, turn = run.turn, id = run.call.id](const McpProgress& p) {
        emit_event(emit, ToolProgressEvent{turn, id, p.progress, p.total, p.message});
    };
    std::uint64_t handle = client->call(
        target->tool, run.call.input,
        [run, report, who, cap = context.output_cap](McpCallOutcome outcome) {
            if (outcome.is_error) {
                report(
                    tool_error(run, "The tool " + who + " failed: " + capped(outcome.text, cap)));
                return;
            }
            report(tool_ok(run, capped(std::move(outcome.text), cap)));
        },
        progress);
    McpServers* servers = context.mcp;
    return [servers, server = target->server, handle] { servers->cancel(server, handle); };
}

} // namespace rio
