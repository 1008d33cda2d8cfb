// The fake LLM server (tests/fake_llm/fake_llm_server.py) as a test fixture: started on an
// ephemeral loopback port with a script of responses; its log shows every request.
#pragma once

#include "tests/support/core_process.hpp"

namespace rio::test {

class FakeLlm {
public:
    // `responses` is the script's "responses" array (see tests/fake_llm/README.md);
    // `models`, when an array, what GET /v1/models lists instead of the server's own.
    // `more`: further script keys (limit, summary, usage_by_size).
    explicit FakeLlm(const Json& responses, const Json& models = nullptr,
                     const Json& more = Json::object());

    std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
    // Every request and connection event logged so far, in order.
    std::vector<Json> log() const;
    std::vector<Json> requests() const; // only the requests

private:
    TempDir dir_;
    std::unique_ptr<CoreProcess> server_;
    int port_ = 0;
};

} // namespace rio::test
