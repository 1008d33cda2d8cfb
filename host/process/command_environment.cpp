#include "host/process/command_environment.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string_view>
#include <unistd.h>

namespace rio {
namespace {

std::string_view name_of(std::string_view var) {
    return var.substr(0, var.find('='));
}

// The user's own GIT_CONFIG_COUNT, or 0 when it is unset or not a count git would take.
std::size_t user_git_pairs(const std::vector<std::string>& environment) {
    for (const std::string& var : environment) {
        if (name_of(var) != "GIT_CONFIG_COUNT") continue;
        std::string_view value = std::string_view(var).substr(var.find('=') + 1);
        std::size_t count = 0;
        auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), count);
        return ec == std::errc() && end == value.data() + value.size() ? count : 0;
    }
    return 0;
}

// GIT_CONFIG_KEY_<n> or GIT_CONFIG_VALUE_<n> with n at or past `pairs`: git reads none of
// them, and ours take those numbers.
bool unused_git_pair(std::string_view name, std::size_t pairs) {
    for (std::string_view prefix : {"GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_"}) {
        if (!name.starts_with(prefix)) continue;
        std::string_view digits = name.substr(prefix.size());
        std::size_t n = 0;
        auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
        return ec != std::errc() || end != digits.data() + digits.size() || n >= pairs;
    }
    return false;
}

} // namespace

bool looks_secret(std::string_view name) {
    std::string upper(name);
    for (char& c : upper)
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    std::string_view n = upper;
    for (std::string_view word :
         {"TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL", "API_KEY", "APIKEY"})
        if (n.find(word) != std::string_view::npos) return true;
    for (std::string_view end : {"_KEY", "_PAT", "_AUTH"})
        if (n.ends_with(end)) return true;
    return n.starts_with("AWS_");
}

std::vector<std::string> command_environment(const std::vector<std::string>& environment,
                                             const std::vector<std::string>& hidden,
                                             const SecretsPassed& passed) {
    std::size_t pairs = user_git_pairs(environment);
    std::vector<std::string> out;
    for (const std::string& var : environment) {
        std::string_view name = name_of(var);
        if (name.starts_with("RIO_") || name == "GIT_CONFIG_COUNT") continue;
        if (unused_git_pair(name, pairs)) continue;
        if (std::find(hidden.begin(), hidden.end(), name) != hidden.end()) continue;
        if (!passed.all && looks_secret(name) &&
            std::find(passed.named.begin(), passed.named.end(), name) == passed.named.end())
            continue;
        out.push_back(var);
    }
    for (const auto& [key, value] : git_hardening) {
        out.push_back("GIT_CONFIG_KEY_" + std::to_string(pairs) + "=" + key);
        out.push_back("GIT_CONFIG_VALUE_" + std::to_string(pairs) + "=" + value);
        ++pairs;
    }
    out.push_back("GIT_CONFIG_COUNT=" + std::to_string(pairs));
    return out;
}

std::vector<std::string> command_environment_from_environ(const std::vector<std::string>& hidden,
                                                          const SecretsPassed& passed) {
    std::vector<std::string> environment;
    for (char** entry = ::environ; entry && *entry; ++entry)
        environment.emplace_back(*entry);
    return command_environment(environment, hidden, passed);
}

std::vector<std::string> proxied_environment(std::vector<std::string> env, std::uint16_t port) {
    const std::string proxy = "http://127.0.0.1:" + std::to_string(port);
    const std::vector<std::string> names{
        "http_proxy", "https_proxy", "HTTP_PROXY",       "HTTPS_PROXY",
        "all_proxy",  "ALL_PROXY",   "npm_config_proxy", "npm_config_https_proxy"};
    auto named = [](const std::string& entry, std::string_view name) {
        return entry.size() > name.size() && entry[name.size()] == '=' &&
               std::equal(name.begin(), name.end(), entry.begin(), [](char a, char b) {
                   return std::tolower(static_cast<unsigned char>(a)) ==
                          std::tolower(static_cast<unsigned char>(b));
               });
    };
    std::erase_if(env, [&](const std::string& entry) {
        for (std::string_view name : {"no_proxy", "npm_config_noproxy"})
            if (named(entry, name)) return true;
        for (const std::string& name : names)
            if (named(entry, name)) return true;
        return false;
    });
    for (const std::string& name : names)
        env.push_back(name + "=" + proxy);
    return env;
}

} // namespace rio
