#include "host/mcp/mcp_transport.hpp"
#include "host/process/piped_process.hpp"

#include <cstdlib>

namespace rio {
namespace {

std::vector<std::string> server_environment(const NameValues& extra) {
    std::vector<std::string> env;
    for (const char* name : {"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"})
        if (const char* value = std::getenv(name)) env.push_back(std::string(name) + "=" + value);
    for (const auto& [name, value] : extra)
        env.push_back(name + "=" + value);
    return env;
}

std::string last_line(std::string text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
        text.pop_back();
    std::size_t nl = text.rfind('\n');
    return nl == std::string::npos ? text : text.substr(nl + 1);
}

class StdioTransport final : public McpTransport {
public:
    explicit StdioTransport(std::shared_ptr<PipedProcess> process) : process_(std::move(process)) {}
    ~StdioTransport() override {
        process_->forget();
        process_->stop();
    }
    void send(const nlohmann::json& message) override {
        process_->write_line(
            message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    }
    void close() override { process_->stop(); }
    pid_t pid() const override { return process_->pid(); }

private:
    std::shared_ptr<PipedProcess> process_;
};

} // namespace

Result<std::unique_ptr<McpTransport>> open_stdio_transport(asio::io_context& io,
                                                           const McpServerConfig& config,
                                                           const std::filesystem::path& cwd,
                                                           McpTransportHandlers handlers) {
    PipedSpec spec;
    spec.argv = config.argv;
    spec.cwd = cwd;
    spec.env = server_environment(config.env);
    auto on_closed = std::move(handlers.on_closed);
    auto process = start_piped(io, std::move(spec),
                               {std::move(handlers.on_message), [on_closed](PipedExit exit) {
                                    if (exit.stopped && !exit.line_too_long) {
                                        on_closed("");
                                        return;
                                    }
                                    std::string why = exit_words(exit);
                                    if (std::string err = last_line(exit.stderr_tail); !err.empty())
                                        why += ": " + err;
                                    on_closed(why);
                                }});
    if (!process) return process.error();
    return std::unique_ptr<McpTransport>(new StdioTransport(std::move(*process)));
}

} // namespace rio
