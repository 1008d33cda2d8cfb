// rio-cli's connection to a core: a private rio-core on a pipe (the default) or a running
// one on a socket (--connect). Requests get their own response; events go to one handler.
#pragma once

#include "protocol/wire.hpp"
#include "host/channel.hpp"

#include <asio/io_context.hpp>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <sys/types.h>
#include <vector>

namespace rio {

class CoreLink {
public:
    using OnResponse = std::function<void(const Json& response)>; // {ok, result} or {ok, error}
    using OnEvent = std::function<void(const std::string& name, const Json& params)>;
    using OnClosed = std::function<void()>;

    // Starts `core` (a rio-core binary) with `args` on a pipe; its stderr stays ours.
    static Result<std::unique_ptr<CoreLink>> spawn(asio::io_context& io, const std::string& core,
                                                   const std::vector<std::string>& args);
    // "unix:PATH" or "HOST:PORT". A TCP core wants its token first (DESIGN §12): `token`,
    // else the one in the user's runtime folder for that address.
    static Result<std::unique_ptr<CoreLink>>
    connect(asio::io_context& io, const std::string& address, std::string token = {});
    ~CoreLink();

    void on_event(OnEvent handler) { on_event_ = std::move(handler); }
    void on_closed(OnClosed handler) { on_closed_ = std::move(handler); }

    void request(const std::string& op, const Json& params, OnResponse done = nullptr);
    // Closes the channel once what is queued is written; a private core sees EOF and exits
    // (the destructor reaps it).
    void close();

private:
    CoreLink(asio::io_context& io, int in_fd, int out_fd, pid_t child);
    void take(const Frame& frame);

    std::shared_ptr<Channel> channel_;
    pid_t child_ = -1;
    long next_id_ = 1;
    std::map<long, OnResponse> waiting_;
    OnEvent on_event_;
    OnClosed on_closed_;
    bool closed_ = false;
};

// rio-core beside this executable, else the one on PATH.
std::string find_core_binary();

} // namespace rio
