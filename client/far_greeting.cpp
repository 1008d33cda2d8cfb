#include "client/far_greeting.hpp"

#include "protocol/json_parse.hpp"

namespace rio::client {
namespace {

// A long MOTD fits; an endless one is not waited on forever.
constexpr std::size_t noise_line_limit = 200;
constexpr std::size_t noise_byte_limit = 64 * 1024;
constexpr std::size_t quoted_noise = 120; // of the first noisy line, in the message

} // namespace

FarGreeting::Line FarGreeting::take(std::string_view line, std::size_t oversize) {
    if (!oversize)
        if (auto parsed = parse_json(line); parsed && parsed->is_object()) return Line::protocol;
    if (noise_lines_++ == 0)
        first_noise_ = oversize ? "a line of " + std::to_string(oversize) + " bytes"
                                : "'" + std::string(line.substr(0, quoted_noise)) + "'";
    noise_bytes_ += oversize ? oversize : line.size();
    if (noise_lines_ > noise_line_limit || noise_bytes_ > noise_byte_limit) return Line::too_much;
    return Line::skipped;
}

RemoteProblem FarGreeting::give_up() const {
    return {RemoteFailure::other, "the far side of " + to_string(address_) + " printed " +
                                      std::to_string(noise_lines_) +
                                      " lines that are not rio's protocol and no answer from " +
                                      core_ + " (the first: " + first_noise_ + ")"};
}

std::optional<RemoteProblem> FarGreeting::check_answer(const Json& result,
                                                       const std::optional<Error>& error,
                                                       std::string_view client) {
    if (error)
        return RemoteProblem{RemoteFailure::other,
                             core_ + " on " + address_.host +
                                 " did not answer session.hello: " + error->message};
    const Json protocol = result.value("protocol", Json());
    if (protocol != Json(protocol_version)) {
        const Json release = result.value("version", Json());
        return RemoteProblem{
            RemoteFailure::version_mismatch,
            core_ + " on " + address_.host + " speaks protocol " + protocol.dump() + " (rio-core " +
                (release.is_string() ? release.get<std::string>() : "?") + "); this " +
                std::string(client) + " speaks protocol " + std::to_string(protocol_version) +
                ": install the same rio release on both machines"};
    }
    answered_ = true;
    return std::nullopt;
}

std::string FarGreeting::noise_note() const {
    return noise_lines_ ? "; on stdout it printed " + first_noise_ : std::string();
}

} // namespace rio::client
