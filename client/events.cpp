#include "client/events.hpp"

#include <array>
#include <utility>

namespace rio::client {
namespace {

template <typename E> std::optional<CoreEvent> decode_as(const Json& params) {
    try {
        return CoreEvent(params.get<E>());
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

using Decoder = std::optional<CoreEvent> (*)(const Json&);

// One entry per alternative of CoreEvent, keyed by the struct's own name.
template <std::size_t... I> constexpr auto decoders(std::index_sequence<I...>) {
    return std::array<std::pair<std::string_view, Decoder>, sizeof...(I)>{
        {{std::variant_alternative_t<I, CoreEvent>::event,
          &decode_as<std::variant_alternative_t<I, CoreEvent>>}...}};
}

constexpr auto table = decoders(std::make_index_sequence<std::variant_size_v<CoreEvent>>{});

} // namespace

std::optional<CoreEvent> decode_event(std::string_view name, const Json& params) {
    if (!params.is_object()) return std::nullopt;
    for (const auto& [known, decode] : table)
        if (known == name) return decode(params);
    return std::nullopt;
}

bool known_event(std::string_view name) {
    for (const auto& entry : table)
        if (entry.first == name) return true;
    return false;
}

std::uint64_t turn_of(const CoreEvent& event) {
    return std::visit(
        [](const auto& e) -> std::uint64_t {
            if constexpr (requires { e.turn; })
                return e.turn;
            else
                return 0;
        },
        event);
}

} // namespace rio::client
