// commands.list and commands.run (issue 48 item 3, DESIGN §23): the user's and the project's
// Markdown commands as `/NAME args` in every frontend. A command is a prompt: it may force
// plan mode and nothing else — no build mode, no model, no tools, no grant.
#include "core/command_text.hpp"
#include "host/store/definition_files.hpp"
#include "ops/agent_ops.hpp"

#include <algorithm>

namespace rio {
namespace {

struct Command {
    CommandInfo info;
    std::string body;
};

struct Commands {
    std::vector<Command> commands;
    std::vector<std::string> notes;
};

// A command without a description is described by its first line.
std::string first_line_of(const std::string& text) {
    std::string line = text.substr(0, text.find('\n'));
    while (!line.empty() && (line.front() == '#' || line.front() == ' '))
        line.erase(line.begin());
    return line.size() > 100 ? line.substr(0, 97) + "…" : line;
}

bool built_in(const std::string& name) {
    return std::find(std::begin(op::builtin_commands), std::end(op::builtin_commands), name) !=
           std::end(op::builtin_commands);
}

Commands read_commands(const UserDirs& dirs, const std::optional<std::filesystem::path>& root) {
    DefinitionFiles files = read_definition_files(dirs, root, "commands");
    Commands out{{}, std::move(files.notes)};
    for (DefinitionFile& file : files.files) {
        const std::string where = file.path.string();
        if (built_in(file.name)) {
            out.notes.push_back(where + ": skipped, /" + file.name + " is rio's own command");
            continue;
        }
        CommandInfo info{file.name, "", file.scope, std::nullopt, false};
        if (auto d = file.fields.find("description"); d != file.fields.end())
            info.description = d->second;
        if (info.description.empty()) info.description = first_line_of(file.body);
        if (auto h = file.fields.find("argument-hint"); h != file.fields.end())
            info.hint = h->second;
        if (auto m = file.fields.find("mode"); m != file.fields.end()) {
            if (m->second == to_wire(Mode::plan))
                info.plan = true;
            else
                out.notes.push_back(where + ": mode \"" + m->second +
                                    "\" not taken: a command can only switch to plan mode");
        }
        for (const char* field : {"model", "allowed-tools", "provider"})
            if (file.fields.count(field))
                out.notes.push_back(where + ": " + field +
                                    " not taken: a command is a prompt and chooses no model, "
                                    "provider or tools");
        out.commands.push_back({std::move(info), std::move(file.body)});
    }
    return out;
}

} // namespace

void register_command_ops(Dispatcher& dispatcher, AgentRuntime& agent, OpContext& context) {
    dispatcher.on<CommandsListParams>(
        [&context](const CommandsListParams&) -> Result<CommandsListResult> {
            Commands read = read_commands(context.dirs, context.workspace.root);
            CommandsListResult result{{}, std::move(read.notes)};
            for (Command& c : read.commands)
                result.commands.push_back(std::move(c.info));
            return result;
        });
    dispatcher.on<CommandsRunParams>(
        [&agent, &context](const CommandsRunParams& p) -> Result<SendResult> {
            Commands read = read_commands(context.dirs, context.workspace.root);
            auto it = std::find_if(read.commands.begin(), read.commands.end(),
                                   [&](const Command& c) { return c.info.name == p.name; });
            if (it == read.commands.end()) {
                std::string names;
                for (const Command& c : read.commands)
                    names += (names.empty() ? "/" : ", /") + c.info.name;
                return make_error(ErrorCode::not_found,
                                  "there is no command /" + p.name +
                                      (names.empty() ? "; none are defined (.rio/commands/NAME.md)"
                                                     : "; there are: " + names));
            }
            const std::string text = expand_command(it->body, p.args.value_or(""));
            if (text.find_first_not_of(" \t\r\n") == std::string::npos)
                return make_error(ErrorCode::bad_request, "the command /" + p.name + " is empty");
            const bool plan = it->info.plan;
            TurnId turn = agent.act([&](AgentLoop& l, Effects& out) {
                if (plan) l.set_mode(Mode::plan, out);
                return l.send(text, out);
            });
            return SendResult{turn};
        });
}

} // namespace rio
