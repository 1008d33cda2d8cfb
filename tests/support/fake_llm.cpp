#include "tests/support/fake_llm.hpp"

#include <fstream>
#include <stdexcept>

namespace rio::test {

FakeLlm::FakeLlm(const Json& responses, const Json& models, const Json& more) {
    Json script{{"responses", responses}};
    for (const auto& [key, value] : more.items())
        script[key] = value;
    if (models.is_array()) script["models"] = models;
    write_bytes(dir_ / "script.json", script.dump());
    server_ = std::make_unique<CoreProcess>(
        std::vector<std::string>{std::string(RIO_SOURCE_DIR) + "/tests/fake_llm/fake_llm_server.py",
                                 "--script", (dir_ / "script.json").string(), "--log",
                                 (dir_ / "log.jsonl").string(), "--port", "0"},
        std::vector<std::string>{}, "python3");
    auto line = server_->stdio().next_line(10s);
    const std::string prefix = "listening on 127.0.0.1:";
    if (!line || line->rfind(prefix, 0) != 0)
        throw std::runtime_error("the fake LLM server did not start: " +
                                 line.value_or("(nothing)") + "\n" + server_->stderr_text());
    port_ = std::stoi(line->substr(prefix.size()));
}

std::vector<Json> FakeLlm::log() const {
    std::vector<Json> entries;
    std::ifstream in(dir_ / "log.jsonl");
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) entries.push_back(Json::parse(line));
    return entries;
}

std::vector<Json> FakeLlm::requests() const {
    std::vector<Json> out;
    for (Json& entry : log())
        if (entry.contains("path")) out.push_back(std::move(entry));
    return out;
}

} // namespace rio::test
