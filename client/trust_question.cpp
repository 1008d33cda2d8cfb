#include "client/trust_question.hpp"

namespace rio::client {

bool trust_matters(const ProjectTrustState& trust) {
    return !trust.trusted && (!trust.files.empty() || !trust.user_rules.empty() ||
                              !trust.language_servers.empty() || !trust.mcp_servers.empty());
}

namespace {

std::string listed(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& name : names)
        out += (out.empty() ? "" : ", ") + name;
    return out;
}

// "Language servers (clangd, pylsp) and your MCP servers (fetch) start when you trust this
// project": both run its code once started in it (decision 0071).
std::string servers_reason(const ProjectTrustState& trust) {
    std::string what;
    if (!trust.language_servers.empty())
        what = "Language servers (" + listed(trust.language_servers) + ")";
    if (!trust.mcp_servers.empty())
        what += (what.empty() ? "Your MCP servers (" : " and your MCP servers (") +
                listed(trust.mcp_servers) + ")";
    return what + " start when you trust this project: started in it, they run code it "
                  "chooses (its toolchain files, build scripts and packages).";
}

} // namespace

std::vector<std::string> trust_reasons(const ProjectTrustState& trust) {
    std::vector<std::string> out;
    for (const TrustedFile& f : trust.files)
        if (!f.trusted)
            out.push_back("This project's " + f.path + " would let the agent " + f.summary + ".");
    if (!trust.user_rules.empty()) {
        std::string rules;
        for (const std::string& rule : trust.user_rules)
            rules += (rules.empty() ? "" : ", ") + rule;
        out.push_back("Until you trust it, every command the agent runs here asks you first, even "
                      "those your allow-list lets run (" +
                      rules +
                      "): trusting it lets them run unasked, and they run the project's own code "
                      "(`make test` runs its Makefile).");
    }
    if (!trust.language_servers.empty() || !trust.mcp_servers.empty())
        out.push_back(servers_reason(trust));
    return out;
}

ProjectTrustSetParams trust_answer(const ProjectTrustState& shown) {
    ProjectTrustSetParams answer{true, std::vector<ShownFile>{}};
    for (const TrustedFile& f : shown.files)
        answer.files->push_back({f.path, f.sha256});
    return answer;
}

} // namespace rio::client
