// Reads the prompt layers of DESIGN §8 from their files, for composing and for
// agent.prompt.list|get|edit.
#pragma once

#include "core/agent/prompt.hpp"
#include "core/agent/tools.hpp"
#include "io/user_dirs.hpp"

#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

namespace rio {

// Every layer in composition order; the plan layer is marked active only in plan mode, the
// compact layer (a summary request's prompt, DESIGN §18) never. Missing files give empty
// layers.
std::vector<PromptLayer> load_prompt_layers(const UserDirs& dirs,
                                            const std::optional<std::filesystem::path>& root,
                                            Mode mode, std::string_view provider);

// The file agent.prompt.edit writes for a layer: the user's override, or the project's for
// scope "project" (project and plan layers only). Empty when the layer has no such file.
std::filesystem::path prompt_override_path(const UserDirs& dirs,
                                           const std::optional<std::filesystem::path>& root,
                                           std::string_view layer, std::string_view scope,
                                           std::string_view provider);

} // namespace rio
