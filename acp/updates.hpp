// What rio's events look like to an ACP client: session/update payloads (message and
// thought chunks, tool calls and their updates), the session's modes and the permission
// request for a proposal. Pure functions of the protocol's structs, so the shapes the
// schema demands are pinned by unit tests.
#pragma once

#include "client/modes.hpp"
#include "protocol/messages.hpp"

#include <string>

namespace rio::acp {

// The ACP mode ids of rio's three choices: "plan", "review", "auto".
std::string mode_id(client::ModeChoice choice);
std::optional<client::ModeChoice> mode_from_id(std::string_view id);

// session/new's `modes` and the `mode` config option with the same ids.
Json modes_state(client::ModeChoice current);
Json mode_config_options(client::ModeChoice current);

Json text_chunk(std::string_view kind, const std::string& text); // agent_message_chunk, …
Json tool_call(const ToolEvent& tool, const std::string& root);
Json tool_call_update(const ToolResultEvent& result);
// A call that runs on says how far it got: in_progress, its content the progress in words
// (the result's content replaces it).
Json tool_call_progress(const ToolProgressEvent& progress);
// A task call's subagent so far (DESIGN §23): its steps' lines as the call's content, in
// progress until the call's own result.
Json subagent_update(const std::string& call_id, const std::vector<std::string>& lines);
// The approved plan's steps as ACP's `plan` update (a client's checklist). ACP has no skipped:
// a skipped step is completed, its content saying "(skipped)" and the note (decision 0064).
Json plan_update(const PlanProgressEvent& progress);

// session/request_permission's params for a proposal: an edit's as agent.proposal gives it,
// with its whole texts, to show the diff; `root` makes paths absolute.
// `by_host`: the core can let a command reach some hosts only (agent.status's
// sandbox.network): a command that asks for hosts gets "with those hosts" once and always.
Json permission_request(const std::string& session_id, const Proposal& proposal,
                        const std::string& root, bool by_host = false);

// What the person picked, as agent.approve's decision and policy; nullopt for an option id
// this bridge did not offer.
struct Choice {
    Verdict decision = Verdict::reject;
    std::optional<ApprovalPolicy> policy = std::nullopt; // plans
    NetworkGrant network = {}; // a command, this once: sandboxed, with the network or hosts
    bool keep_hosts = false;   // and those hosts for every later command
    bool unsandboxed = false;  // a command, this once: without the sandbox
    bool environment = false;  // a command, this once: with secret-looking variables too
};
std::optional<Choice> choice_of(const Proposal& proposal, std::string_view option_id);

// The user's text from a prompt's content blocks (text, and resource links as links).
std::string prompt_text(const Json& blocks);

} // namespace rio::acp
