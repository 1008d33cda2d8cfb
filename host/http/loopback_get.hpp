// A quick blocking HTTP GET to a server on this machine, for the one check that happens
// before the event loop runs: is a local Ollama answering (DESIGN §10 default provider)?
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace rio {

// The body of a 200 answer from http://127.0.0.1:PORT/PATH, or nullopt when nothing
// answers well within `timeout` (connect, send and receive together).
std::optional<std::string> loopback_get(std::uint16_t port, const std::string& path,
                                        std::chrono::milliseconds timeout);

} // namespace rio
