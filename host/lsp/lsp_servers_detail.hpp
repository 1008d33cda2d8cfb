// What lsp_servers.cpp and its siblings (lsp_diagnostics.cpp, lsp_queries.cpp) share: the
// limits on what a server's answer may fill, and a few conversions. Not for other users.
#pragma once

#include "host/lsp/lsp_positions.hpp"
#include "protocol/closed_sets.hpp"
#include "text/utf8.hpp"

#include <asio/io_context.hpp>
#include <asio/post.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>

namespace rio::lsp_detail {

// Past these a server's answer is a flood: the rest is left out.
inline constexpr std::size_t max_locations = 1000;
inline constexpr std::size_t max_symbols = 5000;
// Per server: a trusted server publishing for 5,000 files held the core at ~450 MB (issue 39).
inline constexpr std::size_t max_files_with_diagnostics = 1000;
inline constexpr std::size_t excerpt_bytes = 240;

inline std::string excerpt(std::string_view line) {
    if (line.size() <= excerpt_bytes) return std::string(line);
    std::size_t cut = excerpt_bytes;
    while (cut > 0 && !is_char_boundary(line, cut))
        --cut;
    return std::string(line.substr(0, cut)) + "…";
}

// A position in rio's terms: line from 1, column in bytes.
inline std::pair<std::uint64_t, std::uint64_t> rio_position(const LineIndex& index, LspPosition p) {
    std::size_t offset = index.offset(p);
    std::size_t line = index.line_of(offset);
    return {line + 1, offset - index.line_start(line)};
}

// Most severe first; a name this build does not know counts as an error.
inline int severity_rank(const Wire<Severity>& severity) {
    return static_cast<int>(severity.value().value_or(Severity::error));
}

// Each `done` runs on io, never from inside the call that was given it.
template <typename T> void post_result(asio::io_context& io, std::function<void(T)> done, T value) {
    asio::post(io, [done = std::move(done), value = std::move(value)] { done(value); });
}

} // namespace rio::lsp_detail
