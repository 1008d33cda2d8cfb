// A plan's receipt as a person reads it (issue 43): the Markdown section the plan file gains at
// the end of each turn that carries the plan out. Pure: text from a PlanReceipt.
#pragma once

#include "protocol/messages.hpp"

#include <string>

namespace rio {

inline constexpr std::string_view receipt_heading = "## Receipt\n";

// Starts with receipt_heading. Keys never reach it (the runtime redacts check output before
// the loop keeps it), and every text from a model or a command is one line without control
// characters.
std::string receipt_markdown(const PlanReceipt& receipt);

// One line: "2/3 steps done (1 verified), 1 failed · 2 files edited · 1 command".
std::string receipt_summary(const PlanReceipt& receipt);

} // namespace rio
