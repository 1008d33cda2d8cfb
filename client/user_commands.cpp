#include "client/user_commands.hpp"

#include <cctype>

namespace rio::client {

std::optional<CommandsRunParams> command_call(std::string_view text) {
    if (text.size() < 2 || text.front() != '/') return std::nullopt;
    std::size_t end = 1;
    while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) ||
                                 text[end] == '-' || text[end] == '_' || text[end] == ':'))
        ++end;
    if (end == 1) return std::nullopt;
    if (end < text.size() && text[end] != ' ' && text[end] != '\t' && text[end] != '\n')
        return std::nullopt;
    std::string_view args = text.substr(end);
    while (!args.empty() && (args.front() == ' ' || args.front() == '\t' || args.front() == '\n'))
        args.remove_prefix(1);
    return CommandsRunParams{std::string(text.substr(1, end - 1)), std::string(args)};
}

std::string command_line(const CommandInfo& command) {
    std::string line = "/" + command.name;
    if (command.hint) line += " " + *command.hint;
    if (!command.description.empty()) line += "  " + command.description;
    if (command.scope == DefinitionScope::project) line += " (project)";
    if (command.plan) line += " [plan mode]";
    return line;
}

} // namespace rio::client
