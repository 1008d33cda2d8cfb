#include "protocol/params.hpp"

#include <algorithm>

namespace rio {
namespace {

std::string name_of(const char* where, const char* key) {
    return std::string(where) + "." + key;
}

[[noreturn]] void mistyped(const char* where, const char* key, const char* expected,
                           const Json& got) {
    throw ParamError(name_of(where, key) + ": expected " + expected + ", got " + got.type_name());
}

const Json* find(const Json& params, const char* key) {
    auto it = params.find(key);
    return it == params.end() || it->is_null() ? nullptr : &*it;
}

} // namespace

std::string require_string(const Json& params, const char* key, const char* where) {
    const Json* v = find(params, key);
    if (!v) throw ParamError(name_of(where, key) + " is required");
    if (!v->is_string()) mistyped(where, key, "a string", *v);
    return v->get<std::string>();
}

std::optional<std::string> optional_string(const Json& params, const char* key, const char* where) {
    const Json* v = find(params, key);
    if (!v) return std::nullopt;
    if (!v->is_string()) mistyped(where, key, "a string", *v);
    return v->get<std::string>();
}

std::vector<std::string> optional_strings(const Json& params, const char* key, const char* where) {
    const Json* v = find(params, key);
    if (!v) return {};
    if (v->is_string()) return {v->get<std::string>()};
    auto all_strings = [](const Json& a) {
        return std::all_of(a.begin(), a.end(), [](const Json& s) { return s.is_string(); });
    };
    if (!v->is_array() || !all_strings(*v))
        mistyped(where, key, "a string or an array of strings", *v);
    return v->get<std::vector<std::string>>();
}

std::optional<std::uint64_t> optional_count(const Json& params, const char* key,
                                            const char* where) {
    const Json* v = find(params, key);
    if (!v) return std::nullopt;
    if (!v->is_number_unsigned() && !(v->is_number_integer() && v->get<std::int64_t>() >= 0))
        mistyped(where, key, "a non-negative integer", *v);
    return v->get<std::uint64_t>();
}

bool optional_bool(const Json& params, const char* key, bool fallback, const char* where) {
    const Json* v = find(params, key);
    if (!v) return fallback;
    if (!v->is_boolean()) mistyped(where, key, "a boolean", *v);
    return v->get<bool>();
}

} // namespace rio
