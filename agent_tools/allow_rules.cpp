#include "agent_tools/allow_rules.hpp"

#include "host/files/files.hpp"
#include "host/store/trust_store.hpp"

namespace rio {

std::vector<AllowRule> allow_rules(const ToolContext& context) {
    ProjectTrust trust = current_trust(context.dirs, context.workspace);
    if (!trust.trusted) return {};
    std::vector<AllowRule> rules;
    std::filesystem::path user = context.dirs.config / "allow";
    if (auto text = read_file(user, user.string())) rules = parse_allow_rules(*text);
    for (const PowerFile& file : trust.files)
        if (file.path == ".rio/allow")
            for (AllowRule& rule : parse_allow_rules(file.bytes))
                rules.push_back(std::move(rule));
    return rules;
}

} // namespace rio
