#include "agent_tools/allow_rules.hpp"

#include "host/files/files.hpp"
#include "host/store/trust_store.hpp"

namespace rio {

std::vector<AllowRule> allow_rules(const ToolContext& context) {
    std::vector<AllowRule> rules;
    std::filesystem::path user = context.dirs.config / "allow";
    if (auto text = read_file(user, user.string())) rules = parse_allow_rules(*text);
    if (auto project = trusted_contents(context.dirs, context.workspace, ".rio/allow"))
        for (AllowRule& rule : parse_allow_rules(*project))
            rules.push_back(std::move(rule));
    return rules;
}

} // namespace rio
