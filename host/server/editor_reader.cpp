#include "host/server/editor_reader.hpp"

namespace rio {

EditorReader::EditorReader(asio::io_context& io, Emit emit, std::chrono::milliseconds patience)
    : io_(io), emit_(std::move(emit)), patience_(patience) {}

EditorReaderResult EditorReader::set(ClientId client, bool enabled) {
    if (enabled)
        reader_ = client;
    else if (reader_ == client)
        reader_.reset();
    return {reader_ == client};
}

void EditorReader::client_closed(ClientId client) {
    if (reader_ != client) return;
    reader_.reset();
    // What it was asked will never be answered: those reads go to the disk now.
    while (!pending_.empty())
        finish(pending_.begin()->first, std::nullopt);
}

std::uint64_t EditorReader::read(const std::string& absolute_path, Answer answer) {
    std::uint64_t request = next_++;
    auto deadline = std::make_unique<asio::steady_timer>(io_, patience_);
    deadline->async_wait([this, request](const std::error_code& ec) {
        if (ec) return; // answered or cancelled
        reader_.reset();
        finish(request, std::nullopt);
    });
    pending_.emplace(request, Pending{std::move(answer), std::move(deadline)});
    emit_event(emit_, EditorReadEvent{request, absolute_path});
    return request;
}

Result<Empty> EditorReader::reply(ClientId client, const EditorReadReplyParams& reply) {
    if (reader_ != client)
        return make_error(ErrorCode::refused,
                          "this client is not the editor's reader (send editor.reader.set first)");
    if (!pending_.count(reply.request))
        return make_error(ErrorCode::not_found,
                          "no read " + std::to_string(reply.request) +
                              " is waiting (it was answered, cancelled or timed out)");
    finish(reply.request, reply.error ? std::nullopt : reply.text);
    return Empty{};
}

void EditorReader::cancel(std::uint64_t request) {
    pending_.erase(request);
}

void EditorReader::finish(std::uint64_t request, std::optional<std::string> text) {
    auto it = pending_.find(request);
    if (it == pending_.end()) return;
    Answer answer = std::move(it->second.answer);
    pending_.erase(it);
    answer(std::move(text));
}

} // namespace rio
