#include "client/remote_address.hpp"

#include "protocol/json_parse.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <iterator>

namespace rio::client {
namespace {

constexpr std::string_view ssh_scheme = "ssh://";

Error refuse(std::string_view spec, const std::string& why) {
    return make_error(ErrorCode::bad_request, "--connect " + std::string(spec) + ": " + why);
}

// 0x00–0x1f and DEL: a newline would end the far command early, an escape would reach the
// terminal in every message that names the address.
std::optional<char> control_character(std::string_view text) {
    for (char c : text)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return c;
    return std::nullopt;
}

std::string hex_byte(char c) {
    static constexpr char digits[] = "0123456789abcdef";
    auto byte = static_cast<unsigned char>(c);
    return std::string("0x") + digits[byte >> 4] + digits[byte & 0xf];
}

bool shell_safe(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("_-./:=@%+,").find(c) != std::string_view::npos;
}

// The line of `text` that holds `needle`, trimmed; "" if none does.
std::string line_with(std::string_view text, std::string_view needle) {
    auto at = text.find(needle);
    if (at == std::string_view::npos) return {};
    auto begin = text.rfind('\n', at);
    begin = begin == std::string_view::npos ? 0 : begin + 1;
    auto end = text.find('\n', at);
    std::string line(text.substr(begin, end == std::string_view::npos ? end : end - begin));
    while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
        line.pop_back();
    for (char& c : line)
        if (control_character(std::string_view(&c, 1))) c = '?';
    return line;
}

std::string last_line(std::string_view text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' '))
        text.remove_suffix(1);
    auto begin = text.rfind('\n');
    std::string line(text.substr(begin == std::string_view::npos ? 0 : begin + 1));
    for (char& c : line)
        if (control_character(std::string_view(&c, 1))) c = '?';
    return line;
}

std::string with_excerpt(std::string message, const std::string& line) {
    if (!line.empty()) message += " (ssh: " + line + ")";
    return message;
}

} // namespace

bool is_remote_spec(std::string_view spec) {
    return spec.substr(0, ssh_scheme.size()) == ssh_scheme;
}

Result<RemoteAddress> parse_remote_address(std::string_view spec) {
    if (auto c = control_character(spec))
        return make_error(ErrorCode::bad_request,
                          "--connect: the ssh:// address holds a control character (" +
                              hex_byte(*c) + ")");
    if (!is_remote_spec(spec)) return refuse(spec, "expected ssh://[user@]host[:port]/path");
    std::string_view rest = spec.substr(ssh_scheme.size());
    auto slash = rest.find('/');
    std::string_view authority = rest.substr(0, slash);
    RemoteAddress out;
    if (slash == std::string_view::npos)
        return refuse(spec, "no folder after the host: give its absolute path, as in "
                            "ssh://host/home/me/project");
    out.path = std::string(rest.substr(slash));
    if (out.path.size() > 1 && out.path[1] == '~')
        return refuse(spec, "the folder must be an absolute path (" + out.path.substr(1) +
                                " is relative to the far home, which is not known here)");
    if (auto at = authority.rfind('@'); at != std::string_view::npos) {
        out.user = std::string(authority.substr(0, at));
        authority = authority.substr(at + 1);
        if (out.user.empty()) return refuse(spec, "an empty user before '@'");
        if (out.user.front() == '-')
            return refuse(spec, "a user cannot start with '-' (ssh would take it for an option)");
    }
    std::string_view host = authority, port;
    bool port_given = false; // a ':' after the host, so a port must follow it
    if (!authority.empty() && authority.front() == '[') {
        auto close = authority.find(']');
        if (close == std::string_view::npos) return refuse(spec, "an unclosed '[' in the host");
        host = authority.substr(1, close - 1);
        std::string_view after = authority.substr(close + 1);
        if (!after.empty() && after.front() != ':')
            return refuse(spec, "unexpected '" + std::string(after) + "' after the host");
        port_given = !after.empty();
        if (port_given) port = after.substr(1);
    } else if (auto colon = authority.find(':'); colon != std::string_view::npos) {
        host = authority.substr(0, colon);
        port = authority.substr(colon + 1);
        port_given = true;
    }
    if (host.empty()) return refuse(spec, "no host");
    if (host.front() == '-')
        return refuse(spec, "refusing host '" + std::string(host) +
                                "': a host cannot start with '-' (ssh would take it for an "
                                "option)");
    if (host.find_first_of(" \t'\"\\") != std::string_view::npos)
        return refuse(spec, "a space or quote in the host '" + std::string(host) + "'");
    out.host = std::string(host);
    if (port_given) {
        unsigned value = 0;
        auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
        if (port.empty() || ec != std::errc() || end != port.data() + port.size() || value == 0 ||
            value > 65535)
            return refuse(spec, "bad port '" + std::string(port) + "'");
        out.port = static_cast<std::uint16_t>(value);
    }
    return out;
}

std::string to_string(const RemoteAddress& address) {
    std::string host =
        address.host.find(':') != std::string::npos ? "[" + address.host + "]" : address.host;
    return std::string(ssh_scheme) + (address.user.empty() ? "" : address.user + "@") + host +
           (address.port ? ":" + std::to_string(*address.port) : "") + address.path;
}

std::string far_resume_hint(std::string_view address) {
    return "the conversation so far is kept on the far machine; pick it up with: rio-cli "
           "--connect " +
           shell_quote(address) + " --continue";
}

std::string shell_quote(std::string_view word) {
    if (!word.empty()) {
        bool safe = true;
        for (char c : word)
            safe = safe && shell_safe(c);
        if (safe) return std::string(word);
    }
    std::string out = "'";
    for (char c : word)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

Result<std::vector<std::string>> split_command_line(std::string_view line) {
    std::vector<std::string> words;
    std::string word;
    bool in_word = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        char c = line[i];
        if (c == ' ' || c == '\t' || c == '\n') {
            if (in_word) words.push_back(std::exchange(word, {}));
            in_word = false;
            continue;
        }
        in_word = true;
        if (c == '\\') {
            if (++i == line.size()) return make_error(ErrorCode::bad_request, "a trailing '\\'");
            if (line[i] != '\n') word += line[i];
        } else if (c == '\'') {
            auto close = line.find('\'', i + 1);
            if (close == std::string_view::npos)
                return make_error(ErrorCode::bad_request, "an unclosed single quote");
            word += line.substr(i + 1, close - i - 1);
            i = close;
        } else if (c == '"') {
            for (++i;; ++i) {
                if (i == line.size())
                    return make_error(ErrorCode::bad_request, "an unclosed double quote");
                if (line[i] == '"') break;
                // Inside double quotes a backslash escapes only these.
                if (line[i] == '\\' && i + 1 < line.size() &&
                    std::string_view("\"\\$`\n").find(line[i + 1]) != std::string_view::npos)
                    ++i;
                word += line[i];
            }
        } else {
            word += c;
        }
    }
    if (in_word) words.push_back(word);
    if (words.empty()) return make_error(ErrorCode::bad_request, "an empty command");
    return words;
}

std::string far_command(const RemoteAddress& address, const RemoteLaunch& launch) {
    std::string_view core = launch.core;
    std::string out;
    if (core.substr(0, 2) == "~/") {
        out = "~/";
        core.remove_prefix(2);
    }
    out += shell_quote(core) + " --stdio --project " + shell_quote(address.path);
    auto option = [&out](std::string_view name, const std::string& value) {
        if (!value.empty()) out += " " + std::string(name) + " " + shell_quote(value);
    };
    option("--provider", launch.provider);
    option("--model", launch.model);
    option("--mode", launch.mode);
    return out;
}

Result<std::vector<std::string>> ssh_argv(const RemoteAddress& address,
                                          const RemoteLaunch& launch) {
    auto words = split_command_line(launch.ssh_command);
    if (!words)
        return make_error(ErrorCode::bad_request,
                          "RIO_SSH '" + launch.ssh_command + "': " + words.error().message);
    std::vector<std::string> argv = std::move(*words);
    argv.push_back("-T");
    // ssh keeps the first value it is given for an option: RIO_SSH's own -o come first
    // and win over these.
    // A network that goes away mid-turn ends ssh after 45 s of silence instead of leaving
    // the run waiting for TCP to notice.
    if (launch.batch)
        argv.insert(argv.end(), {"-o", "BatchMode=yes", "-o", "ConnectTimeout=15", "-o",
                                 "ServerAliveInterval=15", "-o", "ServerAliveCountMax=3"});
    if (address.port) argv.insert(argv.end(), {"-p", std::to_string(*address.port)});
    if (!address.user.empty()) argv.insert(argv.end(), {"-l", address.user});
    argv.insert(argv.end(), {"--", address.host, far_command(address, launch)});
    return argv;
}

const std::vector<std::string_view>& provider_key_variables() {
    static const std::vector<std::string_view> names = {"ANTHROPIC_API_KEY", "OPENAI_API_KEY"};
    return names;
}

bool hidden_from_ssh(std::string_view name) {
    const auto& keys = provider_key_variables();
    return name.ends_with("_API_KEY") || std::find(keys.begin(), keys.end(), name) != keys.end();
}

std::vector<std::string> ssh_environment(const char* const* env) {
    std::vector<std::string> out;
    for (; env && *env; ++env) {
        std::string_view entry = *env;
        if (!hidden_from_ssh(entry.substr(0, entry.find('=')))) out.emplace_back(entry);
    }
    return out;
}

std::string configured_remote_core(const std::string& settings_file) {
    if (const char* env = std::getenv("RIO_REMOTE_CORE"); env && *env) return env;
    std::ifstream in(settings_file);
    if (in) {
        std::string text{std::istreambuf_iterator<char>(in), {}};
        JsonParseOptions options;
        options.jsonc = true;
        auto config = parse_json(text, options);
        if (config && config->is_object())
            if (auto core = config->find("remote_core");
                core != config->end() && core->is_string() && !core->get<std::string>().empty())
                return core->get<std::string>();
    }
    return "rio-core";
}

RemoteLaunch configured_remote_launch(const std::string& settings_file) {
    RemoteLaunch launch;
    if (const char* ssh = std::getenv("RIO_SSH"); ssh && *ssh) launch.ssh_command = ssh;
    launch.core = configured_remote_core(settings_file);
    return launch;
}

RemoteProblem classify_ssh_exit(const RemoteAddress& address, const RemoteLaunch& launch,
                                int exit_status, std::string_view ssh_stderr) {
    const std::string& host = address.host;
    // How the user names this host to ssh and to known_hosts.
    const std::string ssh_to =
        (address.port ? "-p " + std::to_string(*address.port) + " " : "") + host;
    const std::string known_as =
        address.port ? "'[" + host + "]:" + std::to_string(*address.port) + "'" : host;
    if (exit_status == 127)
        return {RemoteFailure::core_missing, launch.core + " not found on " + host +
                                                 "; install rio there or set RIO_REMOTE_CORE"};
    if (exit_status == 126)
        return {RemoteFailure::core_missing, launch.core + " on " + host + " cannot be run (" +
                                                 last_line(ssh_stderr) +
                                                 "); install rio there or set RIO_REMOTE_CORE"};
    if (std::string line = line_with(ssh_stderr, "REMOTE HOST IDENTIFICATION HAS CHANGED");
        !line.empty())
        return {RemoteFailure::host_key,
                "the host key of " + host +
                    " has changed since it was last seen, so ssh refused to connect (this "
                    "can be an attack); if the change is expected, remove the old key "
                    "(ssh-keygen -R " +
                    known_as + ") and connect once with `ssh " + ssh_to + "` to check the new one"};
    if (std::string line = line_with(ssh_stderr, "Host key verification failed"); !line.empty())
        return {RemoteFailure::host_key,
                with_excerpt(host + "'s host key is not known here; connect once with `ssh " +
                                 ssh_to + "` to check and accept it",
                             line)};
    if (std::string line = line_with(ssh_stderr, "Permission denied"); !line.empty())
        return {RemoteFailure::auth_refused,
                with_excerpt(host +
                                 " refused the login; rio runs ssh without prompts, so log "
                                 "in with a key (ssh-agent or ~/.ssh/config) and check that "
                                 "`ssh " +
                                 ssh_to + " true` works without a question",
                             line)};
    if (std::string line = line_with(ssh_stderr, "Could not resolve hostname"); !line.empty())
        return {RemoteFailure::host_unreachable, with_excerpt("cannot find host " + host, line)};
    for (std::string_view unreachable :
         {"Connection refused", "timed out", "No route to host", "Network is unreachable",
          "Connection reset", "Connection closed"})
        if (std::string line = line_with(ssh_stderr, unreachable); !line.empty())
            return {RemoteFailure::host_unreachable, with_excerpt("cannot reach " + host, line)};
    std::string last = last_line(ssh_stderr);
    if (exit_status == 255)
        return {RemoteFailure::other, with_excerpt("ssh to " + host + " failed", last)};
    std::string status = exit_status >= 0 ? " (exit " + std::to_string(exit_status) + ")" : "";
    return {RemoteFailure::other, launch.core + " on " + host + " stopped before it answered" +
                                      status + (last.empty() ? "" : ": " + last)};
}

} // namespace rio::client
