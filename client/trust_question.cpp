#include "client/trust_question.hpp"

namespace rio::client {

bool trust_matters(const ProjectTrustState& trust) {
    return !trust.trusted && (!trust.files.empty() || !trust.user_rules.empty());
}

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
    return out;
}

ProjectTrustSetParams trust_answer(const ProjectTrustState& shown) {
    ProjectTrustSetParams answer{true, std::vector<ShownFile>{}};
    for (const TrustedFile& f : shown.files)
        answer.files->push_back({f.path, f.sha256});
    return answer;
}

} // namespace rio::client
