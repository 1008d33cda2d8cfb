#include "host/mcp/mcp_transport.hpp"
#include "host/process/piped_process.hpp"
#include "host/process/server_environment.hpp"

namespace rio {
namespace {

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
