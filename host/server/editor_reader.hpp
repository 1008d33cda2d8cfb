// The core's side of reading the editor's text (DESIGN §15): which client holds it, the
// reads asked of it, and the deadline after which a read goes to the disk instead. A reader
// that misses the deadline, or whose client goes away, is dropped, so one that died costs
// one wait, not one per read.
#pragma once

#include "core/dispatch.hpp"
#include "protocol/messages.hpp"
#include "protocol/core_event.hpp"

#include <asio/io_context.hpp>
#include <asio/steady_timer.hpp>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace rio {

class EditorReader {
public:
    // The editor's text, or nullopt: read the disk.
    using Answer = std::function<void(std::optional<std::string> text)>;

    EditorReader(asio::io_context& io, Emit emit,
                 std::chrono::milliseconds patience = std::chrono::seconds(5));

    EditorReaderResult set(ClientId client, bool enabled);
    void client_closed(ClientId client);
    bool active() const { return reader_.has_value(); }

    // Emits editor.read; `answer` runs once, later, unless cancelled.
    std::uint64_t read(const std::string& absolute_path, Answer answer);
    Result<Empty> reply(ClientId client, const EditorReadReplyParams& reply);
    void cancel(std::uint64_t request);

private:
    struct Pending {
        Answer answer;
        std::unique_ptr<asio::steady_timer> deadline;
    };
    void finish(std::uint64_t request, std::optional<std::string> text);

    asio::io_context& io_;
    Emit emit_;
    std::chrono::milliseconds patience_;
    std::optional<ClientId> reader_;
    std::map<std::uint64_t, Pending> pending_;
    std::uint64_t next_ = 1;
};

} // namespace rio
