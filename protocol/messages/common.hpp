// What every domain's messages share: the closed sets, the field mapping, the names, and
// Empty (an op without params or result).
#pragma once

#include "protocol/closed_sets.hpp"
#include "protocol/fields.hpp"
#include "protocol/names.hpp"
#include "protocol/plan_comments.hpp"
#include "protocol/proposal.hpp"
#include "protocol/sandbox_use.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rio {

using Json = nlohmann::json;

struct Empty {
    template <typename Visit> friend void visit_fields(Visit&&, Empty&) {}
    template <typename Visit> friend void visit_fields(Visit&&, const Empty&) {}
    friend void to_json(Json& j, const Empty&) { j = Json::object(); }
    friend void from_json(const Json&, Empty&) {}
};

} // namespace rio
