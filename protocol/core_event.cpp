#include "protocol/core_event.hpp"

namespace rio {

std::string_view event_name(const CoreEvent& event) {
    return std::visit([](const auto& e) -> std::string_view { return e.event; }, event);
}

Json event_params(const CoreEvent& event) {
    return std::visit([](const auto& e) { return Json(e); }, event);
}

} // namespace rio
