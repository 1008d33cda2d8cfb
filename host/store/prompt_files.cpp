#include "host/store/prompt_files.hpp"

#include "host/files/files.hpp"

namespace rio {
namespace {

namespace fs = std::filesystem;

struct Candidate {
    fs::path path;
    const char* origin;
};

bool blank(std::string_view text) {
    return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

// The first candidate with text wins; a layer may also join several sources (project). An
// empty override is passed over, with a warning: emptying a file must not silently remove
// a shipped layer (the plan layer, say) from the prompt.
PromptLayer first_of(const char* name, const std::vector<Candidate>& candidates) {
    PromptLayer layer{name, "", "", "", true, ""};
    for (const Candidate& c : candidates) {
        auto text = read_file(c.path, c.path.string());
        if (!text) continue;
        if (blank(*text)) {
            layer.warning += (layer.warning.empty() ? "" : "; ") + c.path.string() +
                             " is empty, so it is not used";
            continue;
        }
        layer.source = c.path.string();
        layer.origin = c.origin;
        layer.text = std::move(*text);
        break;
    }
    return layer;
}

PromptLayer joined(const char* name, const std::vector<Candidate>& candidates) {
    PromptLayer layer{name, "", "", "", true, ""};
    for (const Candidate& c : candidates) {
        auto text = read_file(c.path, c.path.string());
        if (!text || text->empty()) continue;
        layer.source += (layer.source.empty() ? "" : ", ") + c.path.string();
        layer.origin = c.origin;
        layer.text += (layer.text.empty() ? "" : "\n\n") + *text;
    }
    return layer;
}

} // namespace

std::vector<PromptLayer> load_prompt_layers(const UserDirs& dirs,
                                            const std::optional<fs::path>& root, Mode mode,
                                            std::string_view provider) {
    fs::path agent = dirs.config / "agent";
    std::vector<PromptLayer> layers;
    layers.push_back(first_of(
        "base", {{agent / "prompt.md", "user"}, {dirs.share / "agent/prompt.md", "shipped"}}));
    layers.push_back(first_of("user", {{agent / "system.md", "user"}}));
    layers.push_back(
        first_of("provider", {{agent / "providers" / (std::string(provider) + ".md"), "user"}}));
    std::vector<Candidate> project;
    if (root) {
        // CLAUDE.md stands in when there is no AGENTS.md: projects written for Claude Code
        // keep their instructions there.
        std::error_code ec;
        fs::path instructions = *root / "AGENTS.md";
        if (!fs::is_regular_file(instructions, ec) || fs::file_size(instructions, ec) == 0)
            instructions = *root / "CLAUDE.md";
        project = {{instructions, "project"}, {*root / ".rio/agent.md", "project"}};
    }
    layers.push_back(joined("project", project));
    std::vector<Candidate> plan;
    if (root) plan.push_back({*root / ".rio/plan.md", "project"});
    plan.push_back({agent / "plan.md", "user"});
    plan.push_back({dirs.share / "agent/plan.md", "shipped"});
    PromptLayer plan_layer = first_of("plan", plan);
    plan_layer.active = mode == Mode::plan;
    layers.push_back(std::move(plan_layer));
    // Not part of any step's prompt: the system prompt of a compaction's summary request.
    PromptLayer compact = first_of(
        "compact", {{agent / "compact.md", "user"}, {dirs.share / "agent/compact.md", "shipped"}});
    compact.active = false;
    layers.push_back(std::move(compact));
    // Not part of the agent's prompt either: what a subagent is told, where plan mode's note
    // would ride (DESIGN §23).
    PromptLayer subagent = first_of("subagent", {{agent / "subagent.md", "user"},
                                                 {dirs.share / "agent/subagent.md", "shipped"}});
    subagent.active = false;
    layers.push_back(std::move(subagent));
    return layers;
}

fs::path prompt_override_path(const UserDirs& dirs, const std::optional<fs::path>& root,
                              std::string_view layer, std::string_view scope,
                              std::string_view provider) {
    fs::path agent = dirs.config / "agent";
    if (scope == "project") {
        if (!root) return {};
        if (layer == "project") return *root / ".rio/agent.md";
        if (layer == "plan") return *root / ".rio/plan.md";
        return {};
    }
    if (layer == "base") return agent / "prompt.md";
    if (layer == "user") return agent / "system.md";
    if (layer == "provider") return agent / "providers" / (std::string(provider) + ".md");
    if (layer == "plan") return agent / "plan.md";
    if (layer == "compact") return agent / "compact.md";
    if (layer == "subagent") return agent / "subagent.md";
    if (layer == "project" && root) return *root / ".rio/agent.md";
    return {};
}

} // namespace rio
