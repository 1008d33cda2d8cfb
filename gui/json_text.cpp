#include "gui/json_text.hpp"

namespace rio::gui {

QString json_string(const Json& json, const char* key) {
    auto it = json.find(key);
    return it != json.end() && it->is_string() ? QString::fromStdString(it->get<std::string>())
                                               : QString();
}

} // namespace rio::gui
