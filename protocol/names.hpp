// Every op and event by name (docs/protocol.md): the one spelling the core, the frontends and
// the tests share. Nothing outside protocol/ writes "agent.delta" as a literal.
#pragma once

#include <string_view>

namespace rio::op {

inline constexpr std::string_view session_hello = "session.hello";

inline constexpr std::string_view project_open = "project.open";
inline constexpr std::string_view project_close = "project.close";
inline constexpr std::string_view project_info = "project.info";
inline constexpr std::string_view project_trust_get = "project.trust.get";
inline constexpr std::string_view project_trust_set = "project.trust.set";

inline constexpr std::string_view fs_list = "fs.list";
inline constexpr std::string_view fs_read = "fs.read";
inline constexpr std::string_view fs_search = "fs.search";
inline constexpr std::string_view fs_files = "fs.files";

inline constexpr std::string_view buffer_open = "buffer.open";
inline constexpr std::string_view buffer_text = "buffer.text";
inline constexpr std::string_view buffer_list = "buffer.list";
inline constexpr std::string_view buffer_replace = "buffer.replace";
inline constexpr std::string_view buffer_save = "buffer.save";
inline constexpr std::string_view buffer_close = "buffer.close";
inline constexpr std::string_view buffer_reload = "buffer.reload";
inline constexpr std::string_view buffer_create = "buffer.create";

inline constexpr std::string_view diff_lines = "diff.lines";

inline constexpr std::string_view git_status = "git.status";
inline constexpr std::string_view commands_list = "commands.list";
inline constexpr std::string_view commands_run = "commands.run";
inline constexpr std::string_view git_marks = "git.marks";
inline constexpr std::string_view git_diff = "git.diff";

inline constexpr std::string_view terminal_open = "terminal.open";
inline constexpr std::string_view terminal_input = "terminal.input";
inline constexpr std::string_view terminal_resize = "terminal.resize";
inline constexpr std::string_view terminal_ack = "terminal.ack";
inline constexpr std::string_view terminal_close = "terminal.close";

inline constexpr std::string_view agent_send = "agent.send";
inline constexpr std::string_view agent_approve = "agent.approve";
inline constexpr std::string_view agent_stop = "agent.stop";
inline constexpr std::string_view agent_reset = "agent.reset";
inline constexpr std::string_view agent_mode_set = "agent.mode.set";
inline constexpr std::string_view agent_autoaccept_set = "agent.autoaccept.set";
inline constexpr std::string_view agent_status = "agent.status";
inline constexpr std::string_view agent_proposal = "agent.proposal";
inline constexpr std::string_view agent_history = "agent.history";
inline constexpr std::string_view agent_tools = "agent.tools";
inline constexpr std::string_view agent_prompt_list = "agent.prompt.list";
inline constexpr std::string_view agent_prompt_get = "agent.prompt.get";
inline constexpr std::string_view agent_prompt_edit = "agent.prompt.edit";
inline constexpr std::string_view agent_providers = "agent.providers";
inline constexpr std::string_view agent_provider_set = "agent.provider.set";
inline constexpr std::string_view agent_provider_test = "agent.provider.test";
inline constexpr std::string_view agent_plan_model_set = "agent.plan_model.set";
inline constexpr std::string_view agent_options_list = "agent.options.list";
inline constexpr std::string_view agent_options_set = "agent.options.set";
inline constexpr std::string_view agent_key_set = "agent.key.set";
inline constexpr std::string_view agent_key_clear = "agent.key.clear";
inline constexpr std::string_view agent_models = "agent.models";
inline constexpr std::string_view agent_sessions_list = "agent.sessions.list";
inline constexpr std::string_view agent_session_resume = "agent.session.resume";
inline constexpr std::string_view agent_session_new = "agent.session.new";
inline constexpr std::string_view agent_undo = "agent.undo";
inline constexpr std::string_view agent_rewind = "agent.rewind";
inline constexpr std::string_view agent_checkpoints = "agent.checkpoints";
inline constexpr std::string_view agent_change = "agent.change";
inline constexpr std::string_view agent_compact = "agent.compact";

inline constexpr std::string_view mcp_list = "mcp.list";
inline constexpr std::string_view mcp_restart = "mcp.restart";
inline constexpr std::string_view mcp_editor_set = "mcp.editor.set";

inline constexpr std::string_view lsp_list = "lsp.list";
inline constexpr std::string_view lsp_restart = "lsp.restart";
inline constexpr std::string_view lsp_diagnostics = "lsp.diagnostics";
inline constexpr std::string_view lsp_hover = "lsp.hover";
inline constexpr std::string_view lsp_definition = "lsp.definition";
inline constexpr std::string_view lsp_references = "lsp.references";
inline constexpr std::string_view lsp_symbols = "lsp.symbols";

inline constexpr std::string_view editor_reader_set = "editor.reader.set";
inline constexpr std::string_view editor_read_reply = "editor.read.reply";

inline constexpr std::string_view plans_list = "plans.list";
inline constexpr std::string_view plans_get = "plans.get";
inline constexpr std::string_view plans_check = "plans.check";
inline constexpr std::string_view plans_comment_add = "plans.comment.add";
inline constexpr std::string_view plans_comment_reply = "plans.comment.reply";
inline constexpr std::string_view plans_comment_resolve = "plans.comment.resolve";

// The frontends' own slash commands: a user's or a project's command of one of these names is
// skipped (commands.list says so), so /help always means rio's help.
inline constexpr std::string_view builtin_commands[] = {
    "plan",     "review", "auto",     "build", "stop",  "clear", "compact", "status",
    "undo",     "output", "provider", "key",   "model", "plans", "steps",   "check",
    "sessions", "mcp",    "problems", "diff",  "help",  "quit",  "exit",    "rewind"};

} // namespace rio::op

namespace rio::event {

// Every agent.* event begins so (headless stream-json passes exactly those on).
inline constexpr std::string_view agent_prefix = "agent.";
inline constexpr std::string_view agent_delta = "agent.delta";
inline constexpr std::string_view agent_thinking = "agent.thinking";
inline constexpr std::string_view agent_usage = "agent.usage";
inline constexpr std::string_view agent_message = "agent.message";
inline constexpr std::string_view agent_tool = "agent.tool";
inline constexpr std::string_view agent_tool_result = "agent.tool_result";
inline constexpr std::string_view agent_tool_progress = "agent.tool_progress";
inline constexpr std::string_view agent_propose = "agent.propose";
inline constexpr std::string_view agent_decided = "agent.decided";
inline constexpr std::string_view agent_error = "agent.error";
inline constexpr std::string_view agent_stopped = "agent.stopped";
inline constexpr std::string_view agent_done = "agent.done";
inline constexpr std::string_view agent_mode = "agent.mode";
inline constexpr std::string_view agent_status = "agent.status";
inline constexpr std::string_view agent_reset = "agent.reset";
inline constexpr std::string_view agent_fresh = "agent.fresh";
inline constexpr std::string_view agent_edit_applied = "agent.edit_applied";
inline constexpr std::string_view agent_checkpoints = "agent.checkpoints";
inline constexpr std::string_view agent_undone = "agent.undone";
inline constexpr std::string_view agent_rewound = "agent.rewound";
inline constexpr std::string_view agent_compacted = "agent.compacted";
inline constexpr std::string_view agent_note = "agent.note";
inline constexpr std::string_view agent_subagent = "agent.subagent";

inline constexpr std::string_view buffer_changed = "buffer.changed";
inline constexpr std::string_view fs_changed = "fs.changed";
inline constexpr std::string_view mcp_changed = "mcp.changed";
inline constexpr std::string_view lsp_changed = "lsp.changed";
inline constexpr std::string_view lsp_diagnostics = "lsp.diagnostics";
inline constexpr std::string_view editor_read = "editor.read";
inline constexpr std::string_view fs_watch = "fs.watch";
inline constexpr std::string_view plans_changed = "plans.changed";
inline constexpr std::string_view plans_report = "plans.report";
inline constexpr std::string_view plans_progress = "plans.progress";
inline constexpr std::string_view plans_comments = "plans.comments";
inline constexpr std::string_view project_changed = "project.changed";
inline constexpr std::string_view project_trust = "project.trust";
inline constexpr std::string_view terminal_output = "terminal.output";
inline constexpr std::string_view terminal_exited = "terminal.exited";

} // namespace rio::event
