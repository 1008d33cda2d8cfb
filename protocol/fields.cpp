#include "protocol/fields.hpp"

namespace rio::fields_detail {

void mistyped(std::string_view where, std::string_view expected, const nlohmann::json& got) {
    throw ParamError(std::string(where) + ": expected " + std::string(expected) + ", got " +
                     got.type_name());
}

} // namespace rio::fields_detail
