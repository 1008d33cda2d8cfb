// Prompt layers (DESIGN §8): which layers exist, where each comes from, and how they are
// composed — in order, blank-line separated, empty layers skipped, the plan layer last.
#pragma once

#include <string>
#include <vector>

namespace rio {

struct PromptLayer {
    std::string name;   // base, user, provider, project, plan
    std::string source; // the file it was read from ("" when none exists)
    std::string origin; // shipped, user, project
    std::string text;
    bool active = true;  // in effect now (the plan layer only in plan mode)
    std::string warning; // e.g. an override file that is empty and so was passed over
};

std::string compose_prompt(const std::vector<PromptLayer>& layers);

} // namespace rio
