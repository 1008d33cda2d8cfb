// present_plan's `addresses` (issue 44): which of the plan's review comments a revision
// answers, each with the model's one-line reply.
#pragma once

#include "protocol/error.hpp"
#include "protocol/plan_comments.hpp"

#include <nlohmann/json.hpp>
#include <vector>

namespace rio {

// None when absent or null; else every item an object with a string `id` and a string
// `reply` (its first line is kept, at most 500 bytes). The error (bad_request) names the
// first place that is not, e.g. "addresses[1].id must be a comment's id, like \"c1\"".
Result<std::vector<CommentAnswer>> read_addresses(const nlohmann::json& input);

// The JSON schema of `addresses`, for the tool's spec.
nlohmann::json addresses_schema();

} // namespace rio
