// How a protocol struct maps to JSON, written once per struct with RIO_FIELDS(Type, a, b, …):
// every field under its own name. A std::optional field is left out when empty and may be
// absent; any other field is required on input ("params.turn is required"), and a value of
// the wrong type is refused naming it ("params.turn: expected an integer, got string").
// Unknown keys are ignored, so adding one never breaks an older client (DESIGN §3).
#pragma once

#include "protocol/closed_sets.hpp"
#include "protocol/params.hpp"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace rio {

template <typename T> struct is_optional : std::false_type {};
template <typename T> struct is_optional<std::optional<T>> : std::true_type {};
template <typename T> struct is_vector : std::false_type {};
template <typename T> struct is_vector<std::vector<T>> : std::true_type {};
// A struct written as a JSON array, a compact row (fs.search's matches), declares
// `static constexpr bool json_array = true;` beside its own to_json / from_json.
template <typename T, typename = void> struct is_json_array : std::false_type {};
template <typename T>
struct is_json_array<T, std::void_t<decltype(T::json_array)>> : std::bool_constant<T::json_array> {
};

template <typename T> struct is_wire : std::false_type {};
template <typename E> struct is_wire<Wire<E>> : std::true_type {};

template <ClosedSet E> void to_json(nlohmann::json& j, const Wire<E>& w) {
    j = w.name();
}
template <ClosedSet E> void from_json(const nlohmann::json& j, Wire<E>& w) {
    w = Wire<E>::named(j.get<std::string>());
}

// A type that takes one string or an array of them (a glob or several) declares
// `static constexpr bool json_string_or_array = true;` and holds them in `items`.
template <typename T, typename = void> struct is_string_or_array : std::false_type {};
template <typename T>
struct is_string_or_array<T, std::void_t<decltype(T::json_string_or_array)>>
    : std::bool_constant<T::json_string_or_array> {};

// A type that takes `true` or an array of strings (a command's network: everything, or some
// hosts) declares `static constexpr bool json_bool_or_array = true;` and holds them in
// `everything` and `items`.
template <typename T, typename = void> struct is_bool_or_array : std::false_type {};
template <typename T>
struct is_bool_or_array<T, std::void_t<decltype(T::json_bool_or_array)>>
    : std::bool_constant<T::json_bool_or_array> {};

// A struct with RIO_FIELDS.
template <typename T, typename = void> struct has_fields : std::false_type {};
template <typename T>
struct has_fields<T, std::void_t<decltype(visit_fields(std::declval<int (*)(const char*, int&)>(),
                                                       std::declval<T&>()))>> : std::true_type {};

namespace fields_detail {

[[noreturn]] void mistyped(std::string_view where, std::string_view expected,
                           const nlohmann::json& got);

template <typename T> const char* expectation() {
    if constexpr (std::is_same_v<T, bool>)
        return "a boolean";
    else if constexpr (std::is_same_v<T, std::string> || is_wire<T>::value)
        return "a string";
    else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>)
        return "a non-negative integer";
    else if constexpr (std::is_integral_v<T>)
        return "an integer";
    else if constexpr (std::is_floating_point_v<T>)
        return "a number";
    else if constexpr (is_vector<T>::value || is_json_array<T>::value)
        return "an array";
    else if constexpr (is_string_or_array<T>::value)
        return "a string or an array of strings";
    else if constexpr (is_bool_or_array<T>::value)
        return "a boolean or an array of strings";
    else
        return "an object";
}

template <typename T> bool fits(const nlohmann::json& j) {
    if constexpr (std::is_same_v<T, nlohmann::json>)
        return true;
    else if constexpr (std::is_same_v<T, bool>)
        return j.is_boolean();
    else if constexpr (std::is_same_v<T, std::string> || is_wire<T>::value)
        return j.is_string();
    else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>)
        return j.is_number_unsigned() || (j.is_number_integer() && j.get<std::int64_t>() >= 0);
    else if constexpr (std::is_integral_v<T>)
        return j.is_number_integer();
    else if constexpr (std::is_floating_point_v<T>)
        return j.is_number();
    else if constexpr (is_vector<T>::value || is_json_array<T>::value)
        return j.is_array();
    else if constexpr (is_string_or_array<T>::value)
        return j.is_string() || j.is_array();
    else if constexpr (is_bool_or_array<T>::value)
        return j.is_boolean() || j.is_array();
    else
        return j.is_object();
}

template <typename T> void read(const nlohmann::json& j, T& out, const std::string& where);

template <typename T> void read_value(const nlohmann::json& j, T& out, const std::string& where) {
    if (!fits<T>(j)) mistyped(where, expectation<T>(), j);
    if constexpr (std::is_same_v<T, nlohmann::json>) {
        out = j;
    } else if constexpr (is_vector<T>::value) {
        out.clear();
        for (std::size_t i = 0; i < j.size(); ++i) {
            typename T::value_type item{};
            read_value(j[i], item, where + "[" + std::to_string(i) + "]");
            out.push_back(std::move(item));
        }
    } else if constexpr (has_fields<T>::value) {
        read(j, out, where);
    } else if constexpr (is_string_or_array<T>::value) {
        out = T{};
        if (j.is_string())
            out.items.push_back(j.get<std::string>());
        else
            read_value(j, out.items, where);
    } else if constexpr (is_bool_or_array<T>::value) {
        out = T{};
        if (j.is_boolean())
            out.everything = j.get<bool>();
        else
            read_value(j, out.items, where);
    } else {
        out = j.get<T>();
    }
}

// Reads the fields of `out` from object `j`; `where` names it in messages ("params").
template <typename T> void read(const nlohmann::json& j, T& out, const std::string& where) {
    visit_fields(
        [&](const char* key, auto& field) {
            using F = std::decay_t<decltype(field)>;
            auto it = j.find(key);
            bool absent = it == j.end() || it->is_null();
            std::string name = where + "." + key;
            if constexpr (is_optional<F>::value) {
                if (absent) return;
                typename F::value_type value{};
                read_value(*it, value, name);
                field = std::move(value);
            } else {
                if (absent) throw ParamError(name + " is required");
                read_value(*it, field, name);
            }
        },
        out);
}

template <typename T> nlohmann::json write_value(const T& value);

template <typename T> void write(nlohmann::json& j, const T& in) {
    j = nlohmann::json::object();
    visit_fields(
        [&](const char* key, const auto& field) {
            using F = std::decay_t<decltype(field)>;
            if constexpr (is_optional<F>::value) {
                if (field) j[key] = write_value(*field);
            } else {
                j[key] = write_value(field);
            }
        },
        in);
}

template <typename T> nlohmann::json write_value(const T& value) {
    if constexpr (is_vector<T>::value) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& item : value)
            out.push_back(write_value(item));
        return out;
    } else if constexpr (has_fields<T>::value) {
        nlohmann::json out;
        write(out, value);
        return out;
    } else {
        return nlohmann::json(value);
    }
}

} // namespace fields_detail

// A request's params as its struct, or ParamError naming what is wrong ("params.x ...").
template <typename T> T parse_fields(const nlohmann::json& j, const std::string& where = "params") {
    T out{};
    if (!j.is_object()) throw ParamError(where + ": expected an object");
    fields_detail::read(j, out, where);
    return out;
}

template <typename T> nlohmann::json fields_json(const T& value) {
    nlohmann::json out;
    fields_detail::write(out, value);
    return out;
}

} // namespace rio

// Expands to visit_fields() for `Type` plus nlohmann's to_json / from_json, so `Json(x)` and
// `j.get<Type>()` work too. Use it in the namespace of `Type`.
#define RIO_FIELDS(Type, ...)                                                                      \
    template <typename Visit> void visit_fields(Visit&& visit, Type& v) {                          \
        RIO_FIELDS_EACH(RIO_FIELDS_VISIT, __VA_ARGS__)                                             \
    }                                                                                              \
    template <typename Visit> void visit_fields(Visit&& visit, const Type& v) {                    \
        RIO_FIELDS_EACH(RIO_FIELDS_VISIT, __VA_ARGS__)                                             \
    }                                                                                              \
    inline void to_json(nlohmann::json& j, const Type& v) {                                        \
        ::rio::fields_detail::write(j, v);                                                         \
    }                                                                                              \
    inline void from_json(const nlohmann::json& j, Type& v) {                                      \
        v = ::rio::parse_fields<Type>(j, #Type);                                                   \
    }

#define RIO_FIELDS_VISIT(field) visit(#field, v.field);

// RIO_FIELDS_EACH(F, a, b, c) -> F(a) F(b) F(c), for up to 20 fields.
#define RIO_FIELDS_EACH(F, ...)                                                                    \
    RIO_FIELDS_PICK(__VA_ARGS__, RIO_F20, RIO_F19, RIO_F18, RIO_F17, RIO_F16, RIO_F15, RIO_F14,    \
                    RIO_F13, RIO_F12, RIO_F11, RIO_F10, RIO_F9, RIO_F8, RIO_F7, RIO_F6, RIO_F5,    \
                    RIO_F4, RIO_F3, RIO_F2, RIO_F1)                                                \
    (F, __VA_ARGS__)
#define RIO_FIELDS_PICK(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16,     \
                        _17, _18, _19, _20, NAME, ...)                                             \
    NAME
#define RIO_F1(F, a) F(a)
#define RIO_F2(F, a, ...) F(a) RIO_F1(F, __VA_ARGS__)
#define RIO_F3(F, a, ...) F(a) RIO_F2(F, __VA_ARGS__)
#define RIO_F4(F, a, ...) F(a) RIO_F3(F, __VA_ARGS__)
#define RIO_F5(F, a, ...) F(a) RIO_F4(F, __VA_ARGS__)
#define RIO_F6(F, a, ...) F(a) RIO_F5(F, __VA_ARGS__)
#define RIO_F7(F, a, ...) F(a) RIO_F6(F, __VA_ARGS__)
#define RIO_F8(F, a, ...) F(a) RIO_F7(F, __VA_ARGS__)
#define RIO_F9(F, a, ...) F(a) RIO_F8(F, __VA_ARGS__)
#define RIO_F10(F, a, ...) F(a) RIO_F9(F, __VA_ARGS__)
#define RIO_F11(F, a, ...) F(a) RIO_F10(F, __VA_ARGS__)
#define RIO_F12(F, a, ...) F(a) RIO_F11(F, __VA_ARGS__)
#define RIO_F13(F, a, ...) F(a) RIO_F12(F, __VA_ARGS__)
#define RIO_F14(F, a, ...) F(a) RIO_F13(F, __VA_ARGS__)
#define RIO_F15(F, a, ...) F(a) RIO_F14(F, __VA_ARGS__)
#define RIO_F16(F, a, ...) F(a) RIO_F15(F, __VA_ARGS__)
#define RIO_F17(F, a, ...) F(a) RIO_F16(F, __VA_ARGS__)
#define RIO_F18(F, a, ...) F(a) RIO_F17(F, __VA_ARGS__)
#define RIO_F19(F, a, ...) F(a) RIO_F18(F, __VA_ARGS__)
#define RIO_F20(F, a, ...) F(a) RIO_F19(F, __VA_ARGS__)
