#include "providers/streaming.hpp"

#include <asio/post.hpp>
#include <asio/steady_timer.hpp>
#include <memory>

namespace rio {
namespace {

struct Playback : std::enable_shared_from_this<Playback> {
    Playback(asio::io_context& io, std::vector<ProviderReport> r, ProviderReportFn fn)
        : io(io), timer(io), reports(std::move(r)), report(std::move(fn)) {}

    void next() {
        asio::post(io, [self = shared_from_this()] {
            if (self->cancelled || self->at == self->reports.size()) return;
            self->report(self->reports[self->at++]);
            self->next();
        });
    }

    asio::io_context& io;
    asio::steady_timer timer;
    std::vector<ProviderReport> reports;
    ProviderReportFn report;
    std::size_t at = 0;
    bool cancelled = false;
};

} // namespace

std::vector<std::string> split_words(std::string_view text) {
    std::vector<std::string> words;
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find(' ', at);
        end = end == std::string_view::npos ? text.size() : end + 1;
        words.emplace_back(text.substr(at, end - at));
        at = end;
    }
    return words;
}

CancelFn play_reports(asio::io_context& io, std::vector<ProviderReport> reports,
                      ProviderReportFn report, std::chrono::milliseconds delay) {
    auto playback = std::make_shared<Playback>(io, std::move(reports), std::move(report));
    if (delay.count() > 0) {
        playback->timer.expires_after(delay);
        playback->timer.async_wait([playback](std::error_code ec) {
            if (!ec) playback->next();
        });
    } else {
        playback->next();
    }
    return [playback] {
        playback->cancelled = true;
        playback->timer.cancel();
    };
}

} // namespace rio
