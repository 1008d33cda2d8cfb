#include "providers/lenient_json.hpp"

namespace rio {

const nlohmann::json* field(const nlohmann::json& j, const char* key) {
    if (!j.is_object()) return nullptr;
    auto it = j.find(key);
    return it == j.end() ? nullptr : &*it;
}

std::string text_at(const nlohmann::json& j, const char* key) {
    const nlohmann::json* f = field(j, key);
    return f && f->is_string() ? f->get<std::string>() : std::string();
}

} // namespace rio
