// What a frontend reads from a far core over ssh before that core has answered
// session.hello (DESIGN §22, decision 0060), without I/O: which stdout lines are the far
// shell's noise (a banner, a MOTD, .bashrc output) and are skipped, a bounded number of them;
// and whether the answer speaks this frontend's protocol. The Asio link (client/core_link)
// and the desktop's Qt glue (gui/core_client) both feed it.
#pragma once

#include "client/remote_address.hpp"
#include "protocol/wire.hpp"

#include <cstddef>
#include <optional>
#include <string>

namespace rio::client {

class FarGreeting {
public:
    FarGreeting(RemoteAddress address, std::string core)
        : address_(std::move(address)), core_(std::move(core)) {}

    enum class Line { protocol, skipped, too_much };
    // One stdout line (`oversize`: the byte count of a line too long to keep, else 0) read
    // before the answer: a JSON object is protocol; anything else is skipped until there is
    // too much of it, when give_up() says what came.
    Line take(std::string_view line, std::size_t oversize);
    RemoteProblem give_up() const;

    // The far core's session.hello answer; a problem when it failed or speaks another
    // protocol (both versions named). `client` is this frontend's name for the message.
    std::optional<RemoteProblem> check_answer(const Json& result, const std::optional<Error>& error,
                                              std::string_view client);
    bool answered() const { return answered_; }

    // "; on stdout it printed '…'" when noise came before a failure ssh explained poorly.
    std::string noise_note() const;

    const RemoteAddress& address() const { return address_; }
    const std::string& core() const { return core_; }

private:
    RemoteAddress address_;
    std::string core_;
    bool answered_ = false;
    std::size_t noise_lines_ = 0, noise_bytes_ = 0;
    std::string first_noise_;
};

} // namespace rio::client
