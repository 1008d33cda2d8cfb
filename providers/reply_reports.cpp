#include "providers/reply_reports.hpp"

namespace rio {

std::string tool_input_too_large(std::string_view who, std::string_view tool) {
    return std::string(who) + " sent more than " +
           std::to_string(max_tool_input_bytes / (1024 * 1024)) + " MB of input for tool '" +
           std::string(tool) + "'; the reply was dropped";
}

} // namespace rio
