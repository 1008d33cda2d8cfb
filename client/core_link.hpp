// A terminal frontend's (or the ACP bridge's) connection to a core, on Asio: a private
// rio-core on a pipe (the default) or a running one on a socket. Requests go through
// client::Requests; events arrive typed.
#pragma once

#include "client/remote_address.hpp"
#include "client/requests.hpp"
#include "io/channel.hpp"

#include <asio/io_context.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

namespace rio::client {

class CoreLink {
public:
    using OnEvent = std::function<void(const CoreEvent& event)>;
    // Once: the channel closed, or the core refused this client (`why` says which).
    using OnLost = std::function<void(const std::string& why)>;

    // Starts `core` (a rio-core binary) with `args` on a pipe, in its own process group;
    // its stderr stays ours.
    static Result<std::unique_ptr<CoreLink>> spawn(asio::io_context& io, const std::string& core,
                                                   const std::vector<std::string>& args);
    // "unix:PATH" or "HOST:PORT". A TCP core wants its token first (DESIGN §12): `token`,
    // else the one in the user's runtime folder for that address.
    static Result<std::unique_ptr<CoreLink>>
    connect(asio::io_context& io, const std::string& address, std::string token = {});
    // A line the far side wrote on stderr (with its '\n', unless it was cut): text from
    // outside, which the frontend shows as it shows any (rio-cli: terminal-safe).
    using FarLines = std::function<void(std::string_view line)>;

    // `ssh -T … HOST 'rio-core --stdio --project PATH …'` (DESIGN §22, decision 0060), with
    // our environment less the provider keys (ssh_environment). The link says session.hello
    // itself (as `client`) and checks the far protocol version; until the far core answers,
    // stdout lines that are not protocol (a far .bashrc's banner) are skipped, a bounded
    // number of them, and ssh's stderr is held back to explain a failure (failure()); after
    // that each of its lines goes to `far_stderr`.
    static Result<std::unique_ptr<CoreLink>> ssh(asio::io_context& io, const RemoteAddress& address,
                                                 const RemoteLaunch& launch,
                                                 const std::string& client, FarLines far_stderr);
    ~CoreLink();

    // The channel closed, or the core refused this client.
    bool lost() const { return closed_; }
    // Why an ssh link ended before its far core answered session.hello, once it has.
    std::optional<RemoteProblem> failure() const;

    void on_event(OnEvent handler) { on_event_ = std::move(handler); }
    void on_lost(OnLost handler) { on_lost_ = std::move(handler); }

    // `done` may be empty when nothing waits for the reply.
    template <typename P>
    void call(const P& params, std::function<void(const Typed<P>&)> done = nullptr) {
        channel_->send(requests_.encode(params, std::move(done)));
    }
    // Closes the channel once what is queued is written; a private core sees EOF and exits
    // (the destructor reaps it).
    void close();

private:
    struct Remote;
    // Untyped, for the far core's hello alone: a far core of another version answers in a
    // shape this one's HelloResult may not fit, and the greeting says which (decision 0060).
    void request(std::string_view op, const Json& params, ReplyHandler done = nullptr);
    CoreLink(asio::io_context& io, int in_fd, int out_fd, pid_t child,
             std::unique_ptr<Remote> remote = nullptr);
    void lose(const std::string& why);
    void take_frame(const Frame& frame);
    void greet_far_core(const std::string& client);
    void far_output_ended();
    void far_failed(RemoteProblem problem);
    void conclude_far_failure();

    std::shared_ptr<Channel> channel_;
    Requests requests_;
    pid_t child_ = -1;
    OnEvent on_event_;
    OnLost on_lost_;
    bool closed_ = false;
    std::unique_ptr<Remote> remote_; // an ssh link's state; null otherwise
};

// rio-core beside this executable, else the one on PATH.
std::string find_core_binary();

} // namespace rio::client
