// present_plan's `steps` (DESIGN §20, issue 43 item 1): the model's input checked strictly and
// read into DeclaredStep values, so a plan with a malformed contract is refused before it is
// filed, with the place that is wrong named.
#pragma once

#include "protocol/error.hpp"
#include "protocol/proposal.hpp"

#include <cstddef>
#include <nlohmann/json.hpp>
#include <vector>

namespace rio {

// Past this a plan's steps are no checklist a person can approve.
inline constexpr std::size_t max_declared_steps = 50;

// The tool input's `steps`: none when absent or null; else every item an object with a
// non-empty string `text`, `files` a list of non-empty strings, `check` an object with a
// non-empty `argv` of strings, `cwd` a string and `writes` a bool. The error (bad_request)
// names the first place that is not, e.g. "steps[2].check.argv must be a non-empty list of
// strings". A glob that matches nothing is fine: it is not expanded here.
Result<std::vector<DeclaredStep>> read_declared_steps(const nlohmann::json& input);

// The JSON schema of `steps`, for the tool's spec.
nlohmann::json declared_steps_schema();

} // namespace rio
