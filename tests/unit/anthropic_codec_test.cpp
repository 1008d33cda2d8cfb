#include "providers/anthropic_codec.hpp"
#include "tests/support/report_text.hpp"

#include <gtest/gtest.h>

namespace rio {
namespace {

using Json = nlohmann::json;

using test::describe;

// Feeds raw SSE bytes through the parser and the decoder, `chunk` bytes at a time.
std::vector<std::string> decode(AnthropicStream& stream, std::string_view bytes,
                                std::size_t chunk = 7) {
    SseParser parser;
    std::vector<std::string> out;
    for (std::size_t at = 0; at < bytes.size(); at += chunk)
        for (const SseEvent& e : parser.feed(bytes.substr(at, chunk)))
            for (const ProviderReport& r : stream.on_event(e))
                out.push_back(describe(r));
    return out;
}

std::vector<std::string> decode(std::string_view bytes) {
    AnthropicStream stream;
    return decode(stream, bytes);
}

std::vector<std::string> decode_events(AnthropicStream& stream, const std::vector<Json>& events) {
    std::vector<std::string> out;
    for (const Json& e : events)
        for (const ProviderReport& r : stream.on_event(SseEvent{e.value("type", ""), e.dump()}))
            out.push_back(describe(r));
    return out;
}

std::shared_ptr<const Message> entry(Message m) {
    return std::make_shared<const Message>(std::move(m));
}

ToolSpec read_spec() {
    return ToolSpec{"read_file", ToolKind::read, "Read a file.",
                    Json{{"type", "object"},
                         {"properties", {{"path", {{"type", "string"}}}}},
                         {"required", {"path"}}}};
}

// A user request, a reply with signed thinking, text and a call, its result, a reply with
// only calls (and a redacted thinking block), their results (one failed) plus more text.
ProviderRequest coding_request() {
    ProviderRequest request;
    request.system = "You are rio.";
    request.tools = {read_spec()};
    request.conversation = {
        entry({Role::user, "Fix the crash in main.cpp", {}, {}, {}, ModeNote::none}),
        entry(
            {Role::assistant,
             "Let me look.",
             {ToolCall{"toolu_1", "read_file", {{"path", "main.cpp"}}}},
             {},
             {Json{{"provider", "anthropic"},
                   {"block",
                    {{"type", "thinking"}, {"thinking", "Read it first."}, {"signature", "sig1"}}}},
              Json{{"provider", "openai"}, {"block", {{"type", "reasoning"}}}}},
             ModeNote::none}),
        entry({Role::user,
               "",
               {},
               {ToolOutcome{"toolu_1", "int main() { return *p; }", false, {}, {}}},
               {},
               ModeNote::none}),
        entry({Role::assistant,
               "",
               {ToolCall{"toolu_2", "edit_file", {{"path", "main.cpp"}}},
                ToolCall{"toolu_3", "run", {{"command", "make test"}}}},
               {},
               {Json{{"provider", "anthropic"},
                     {"block", {{"type", "redacted_thinking"}, {"data", "opaque"}}}}},
               ModeNote::none}),
        entry({Role::user,
               "Also add a test.",
               {},
               {ToolOutcome{"toolu_2", "edited", false, {}, {}},
                ToolOutcome{"toolu_3", "exit 1", true, {}, {}}},
               {},
               ModeNote::none}),
    };
    return request;
}

TEST(AnthropicRequest, EncodesAConversationWithToolsResultsAndKeptThinking) {
    Json body = anthropic_request(coding_request(), {"claude-test", 8192, ""});
    Json want = Json::parse(R"({
      "model": "claude-test", "max_tokens": 8192, "stream": true,
      "system": [{"type": "text", "text": "You are rio.", "cache_control": {"type": "ephemeral"}}],
      "tools": [{"name": "read_file", "description": "Read a file.",
                 "input_schema": {"type": "object", "properties": {"path": {"type": "string"}},
                                  "required": ["path"]},
                 "cache_control": {"type": "ephemeral"}}],
      "messages": [
        {"role": "user", "content": [{"type": "text", "text": "Fix the crash in main.cpp"}]},
        {"role": "assistant", "content": [
          {"type": "thinking", "thinking": "Read it first.", "signature": "sig1"},
          {"type": "text", "text": "Let me look."},
          {"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {"path": "main.cpp"}}]},
        {"role": "user", "content": [
          {"type": "tool_result", "tool_use_id": "toolu_1", "content": "int main() { return *p; }",
           "cache_control": {"type": "ephemeral"}}]},
        {"role": "assistant", "content": [
          {"type": "redacted_thinking", "data": "opaque"},
          {"type": "tool_use", "id": "toolu_2", "name": "edit_file", "input": {"path": "main.cpp"}},
          {"type": "tool_use", "id": "toolu_3", "name": "run", "input": {"command": "make test"}}]},
        {"role": "user", "content": [
          {"type": "tool_result", "tool_use_id": "toolu_2", "content": "edited"},
          {"type": "tool_result", "tool_use_id": "toolu_3", "content": "exit 1", "is_error": true},
          {"type": "text", "text": "Also add a test.", "cache_control": {"type": "ephemeral"}}]}
      ]})");
    EXPECT_EQ(body, want) << body.dump(2);
}

// Decision 0053: at most four breakpoints, on the tools, the system prompt, the message that
// ended the previous step's request and the newest; and a step's request repeats the previous
// one's messages byte for byte, so the cache holds everything but the newest step.
TEST(AnthropicRequest, CacheBreakpointsSitOnTheStablePrefixAndTheNewestMessages) {
    ProviderRequest step1 = coding_request();
    step1.conversation.resize(3); // user, assistant (calls), user (results)
    ProviderRequest step2 = coding_request();
    Json one = anthropic_request(step1, {"m", 100, ""});
    Json two = anthropic_request(step2, {"m", 100, ""});
    auto breakpoints = [](const Json& body) {
        std::vector<std::string> at;
        if (body["system"][0].contains("cache_control")) at.push_back("system");
        for (const Json& t : body["tools"])
            if (t.contains("cache_control")) at.push_back("tool " + t["name"].get<std::string>());
        for (std::size_t i = 0; i < body["messages"].size(); ++i)
            for (const Json& b : body["messages"][i]["content"])
                if (b.contains("cache_control")) at.push_back("message " + std::to_string(i));
        return at;
    };
    EXPECT_EQ(breakpoints(one),
              (std::vector<std::string>{"system", "tool read_file", "message 0", "message 2"}));
    EXPECT_EQ(breakpoints(two),
              (std::vector<std::string>{"system", "tool read_file", "message 2", "message 4"}));
    EXPECT_EQ(one["system"].dump(), two["system"].dump());
    EXPECT_EQ(one["tools"].dump(), two["tools"].dump());
    // The cache matches content; where the breakpoints sit is not part of it.
    auto unmarked = [](Json message) {
        for (Json& block : message["content"])
            block.erase("cache_control");
        return message.dump();
    };
    for (std::size_t i = 0; i < one["messages"].size(); ++i)
        EXPECT_EQ(unmarked(one["messages"][i]), unmarked(two["messages"][i])) << "message " << i;
    EXPECT_EQ(one["messages"][2].dump(), two["messages"][2].dump())
        << "the end of the previous request is marked in both";
}

TEST(AnthropicRequest, APlanModeNoteRidesInTheUserMessageNotInTheSystemPrompt) {
    ProviderRequest request;
    request.system = "You are rio.";
    request.plan_note = "# Plan mode";
    Message planning{Role::user, "Plan it.", {}, {}, {}, ModeNote::plan};
    request.conversation = {std::make_shared<const Message>(planning)};
    Json body = anthropic_request(request, {"m", 100, ""});
    EXPECT_EQ(body["system"][0]["text"], "You are rio.");
    EXPECT_EQ(body["messages"][0]["content"][0]["text"], "# Plan mode");
    EXPECT_EQ(body["messages"][0]["content"][1]["text"], "Plan it.");
}

TEST(AnthropicRequest, OmitsAnEmptySystemPromptAndNeverSendsEmptyContent) {
    ProviderRequest request;
    request.conversation = {entry({Role::user, "hi", {}, {}, {}, ModeNote::none}),
                            entry({Role::assistant, "", {}, {}, {}, ModeNote::none}),
                            entry({Role::user, "again", {}, {}, {}, ModeNote::none})};
    Json body = anthropic_request(request, {"m", 100, ""});
    EXPECT_FALSE(body.contains("system"));
    EXPECT_FALSE(body.contains("tools"));
    EXPECT_FALSE(body.contains("thinking"));
    // The empty assistant turn is dropped; the API merges the two user turns.
    ASSERT_EQ(body["messages"].size(), 2u);
    for (const Json& m : body["messages"])
        for (const Json& block : m["content"])
            EXPECT_NE(block.value("text", "?"), "");
}

TEST(AnthropicRequest, EffortSetsAThinkingBudgetBelowMaxTokens) {
    EXPECT_EQ(anthropic_thinking_budget(""), 0);
    EXPECT_EQ(anthropic_thinking_budget("low"), 2048);
    EXPECT_EQ(anthropic_thinking_budget("medium"), 8192);
    EXPECT_EQ(anthropic_thinking_budget("high"), 24576);
    EXPECT_EQ(anthropic_thinking_budget("max"), std::nullopt);

    ProviderRequest request;
    request.conversation = {entry({Role::user, "hi", {}, {}, {}, ModeNote::none})};
    Json low = anthropic_request(request, {"m", 8192, "low"});
    EXPECT_EQ(low["thinking"], (Json{{"type", "enabled"}, {"budget_tokens", 2048}}));
    EXPECT_EQ(low["max_tokens"], 8192) << "already above the budget";

    Json medium = anthropic_request(request, {"m", 8192, "medium"});
    EXPECT_EQ(medium["thinking"]["budget_tokens"], 8192);
    EXPECT_GT(medium["max_tokens"].get<int>(), 8192) << "raised to leave room for the answer";

    Json high = anthropic_request(request, {"m", 8192, "high"});
    EXPECT_GT(high["max_tokens"].get<int>(), 24576);
    EXPECT_LE(high["max_tokens"].get<int>(), 32000) << "within the smallest model output cap";

    EXPECT_FALSE(anthropic_request(request, {"m", 8192, "bogus"}).contains("thinking"));
}

// Written from the documented event shapes: thinking, text, then two tool_use blocks whose
// input arrives in many pieces, with a ping and an event type we do not know in between.
constexpr std::string_view recorded_stream =
    "event: message_start\n"
    "data: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_01\",\"type\":\"message\","
    "\"role\":\"assistant\",\"content\":[],\"model\":\"claude-test\",\"stop_reason\":null,"
    "\"stop_sequence\":null,\"usage\":{\"input_tokens\":1200,\"cache_creation_input_tokens\":0,"
    "\"cache_read_input_tokens\":800,\"output_tokens\":1}}}\n\n"
    "event: content_block_start\n"
    "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"thinking\","
    "\"thinking\":\"\",\"signature\":\"\"}}\n\n"
    "event: ping\n"
    "data: {\"type\": \"ping\"}\n\n"
    "event: content_block_delta\n"
    "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\","
    "\"thinking\":\"The crash is a null \"}}\n\n"
    "event: content_block_delta\n"
    "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\","
    "\"thinking\":\"pointer.\"}}\n\n"
    "event: content_block_delta\n"
    "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"signature_delta\","
    "\"signature\":\"EqQBCgIYAh\"}}\n\n"
    "event: content_block_delta\n"
    "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"signature_delta\","
    "\"signature\":\"IM0xyz==\"}}\n\n"
    "event: content_block_stop\n"
    "data: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
    "event: content_block_start\n"
    "data: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"text\","
    "\"text\":\"\"}}\n\n"
    "event: content_block_delta\n"
    "data: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"text_delta\","
    "\"text\":\"I'll fix it \xE2\x80\x94 \"}}\n\n"
    "event: content_block_delta\n"
    "data: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"text_delta\","
    "\"text\":\"then test.\"}}\n\n"
    "event: content_block_stop\n"
    "data: {\"type\":\"content_block_stop\",\"index\":1}\n\n"
    "event: content_block_start\n"
    "data: {\"type\":\"content_block_start\",\"index\":2,\"content_block\":{\"type\":\"tool_use\","
    "\"id\":\"toolu_A\",\"name\":\"edit_file\",\"input\":{}}}\n\n"
    "event: content_block_delta\n"
    "data: {\"type\":\"content_block_delta\",\"index\":2,\"delta\":{\"type\":\"input_json_delta\","
    "\"partial_json\":\"\"}}\n\n"
    "event: content_block_delta\n"
    "data: {\"type\":\"content_block_delta\",\"index\":2,\"delta\":{\"type\":\"input_json_delta\","
    "\"partial_json\":\"{\\\"pa\"}}\n\n"
    "event: content_block_delta\n"
    "data: {\"type\":\"content_block_delta\",\"index\":2,\"delta\":{\"type\":\"input_json_delta\","
    "\"partial_json\":\"th\\\": \\\"main.c\"}}\n\n"
    "event: future_event\n"
    "data: not json at all\n\n"
    "event: content_block_delta\n"
    "data: {\"type\":\"content_block_delta\",\"index\":2,\"delta\":{\"type\":\"input_json_delta\","
    "\"partial_json\":\"pp\\\", \\\"old\\\": \\\"*p\\\", \\\"new\\\": \\\"p ? *p : 0\\\"}\"}}\n\n"
    "event: content_block_stop\n"
    "data: {\"type\":\"content_block_stop\",\"index\":2}\n\n"
    "event: content_block_start\n"
    "data: {\"type\":\"content_block_start\",\"index\":3,\"content_block\":{\"type\":\"tool_use\","
    "\"id\":\"toolu_B\",\"name\":\"run\",\"input\":{}}}\n\n"
    "event: content_block_delta\n"
    "data: {\"type\":\"content_block_delta\",\"index\":3,\"delta\":{\"type\":\"input_json_delta\","
    "\"partial_json\":\"{\\\"command\\\"\"}}\n\n"
    "event: content_block_delta\n"
    "data: {\"type\":\"content_block_delta\",\"index\":3,\"delta\":{\"type\":\"input_json_delta\","
    "\"partial_json\":\": \\\"make \"}}\n\n"
    "event: content_block_delta\n"
    "data: {\"type\":\"content_block_delta\",\"index\":3,\"delta\":{\"type\":\"input_json_delta\","
    "\"partial_json\":\"test\\\"}\"}}\n\n"
    "event: content_block_stop\n"
    "data: {\"type\":\"content_block_stop\",\"index\":3}\n\n"
    "event: message_delta\n"
    "data: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\","
    "\"stop_sequence\":null},\"usage\":{\"output_tokens\":187}}\n\n"
    "event: message_stop\n"
    "data: {\"type\":\"message_stop\"}\n\n";

TEST(AnthropicStream, DecodesARecordedStreamWithThinkingTextAndTwoToolCalls) {
    AnthropicStream stream;
    EXPECT_FALSE(stream.produced_output());
    std::vector<std::string> got = decode(stream, recorded_stream);
    std::vector<std::string> want{
        "thinking:The crash is a null ",
        "thinking:pointer.",
        R"(keep:{"block":{"signature":"EqQBCgIYAhIM0xyz==","thinking":"The crash is a null pointer.","type":"thinking"},"provider":"anthropic"})",
        "delta:I'll fix it \xE2\x80\x94 ",
        "delta:then test.",
        R"(tool_call:toolu_A edit_file {"new":"p ? *p : 0","old":"*p","path":"main.cpp"})",
        R"(tool_call:toolu_B run {"command":"make test"})",
        R"(usage:{"cache_creation_input_tokens":0,"cache_read_input_tokens":800,"input_tokens":1200,"output_tokens":187})",
        "done:tool_use",
    };
    EXPECT_EQ(got, want);
    EXPECT_TRUE(stream.finished());
    EXPECT_TRUE(stream.produced_output());
    EXPECT_TRUE(stream.on_end_of_stream().empty()) << "message_stop was seen";
}

TEST(AnthropicStream, TheRecordedStreamDecodesTheSameWhateverTheChunking) {
    std::vector<std::string> whole = decode(recorded_stream);
    for (std::size_t chunk : {1u, 2u, 3u, 64u, 100000u}) {
        AnthropicStream stream;
        EXPECT_EQ(decode(stream, recorded_stream, chunk), whole) << "chunk " << chunk;
    }
}

TEST(AnthropicStream, AToolWithoutInputGetsAnEmptyObject) {
    AnthropicStream stream;
    auto got = decode_events(
        stream,
        {{{"type", "content_block_start"},
          {"index", 0},
          {"content_block",
           {{"type", "tool_use"}, {"id", "t1"}, {"name", "list"}, {"input", Json::object()}}}},
         {{"type", "content_block_stop"}, {"index", 0}},
         {{"type", "message_delta"}, {"delta", {{"stop_reason", "tool_use"}}}},
         {{"type", "message_stop"}}});
    EXPECT_EQ(got, (std::vector<std::string>{"tool_call:t1 list {}", "done:tool_use"}));
}

TEST(AnthropicStream, RedactedThinkingIsKeptVerbatim) {
    AnthropicStream stream;
    Json block{{"type", "redacted_thinking"}, {"data", "EmwKAhgBEgy3va3pzix"}};
    auto got = decode_events(
        stream, {{{"type", "content_block_start"}, {"index", 0}, {"content_block", block}},
                 {{"type", "content_block_stop"}, {"index", 0}}});
    Json kept{{"provider", "anthropic"}, {"block", block}};
    EXPECT_EQ(got, std::vector<std::string>{"keep:" + kept.dump()});
    EXPECT_FALSE(stream.produced_output()) << "nothing was shown";
}

TEST(AnthropicStream, UnparsableToolInputIsABadResponse) {
    AnthropicStream stream;
    auto got = decode_events(
        stream,
        {{{"type", "content_block_start"},
          {"index", 0},
          {"content_block",
           {{"type", "tool_use"}, {"id", "t1"}, {"name", "run"}, {"input", Json::object()}}}},
         {{"type", "content_block_delta"},
          {"index", 0},
          {"delta", {{"type", "input_json_delta"}, {"partial_json", "{\"command\": \"ma"}}}},
         {{"type", "content_block_stop"}, {"index", 0}},
         {{"type", "message_stop"}}});
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].rfind("error:bad_response:Anthropic sent input for tool 'run'", 0), 0u)
        << got[0];
    EXPECT_TRUE(stream.finished());
}

TEST(AnthropicStream, MapsErrorEventsToTheClosedCodes) {
    std::vector<std::pair<std::string, std::string>> cases{
        {"overloaded_error", "server"},   {"rate_limit_error", "rate_limit"},
        {"authentication_error", "auth"}, {"permission_error", "auth"},
        {"api_error", "server"},          {"invalid_request_error", "bad_response"},
        {"some_future_error", "server"},
    };
    for (const auto& [type, code] : cases) {
        auto got = decode("event: content_block_delta\n"
                          "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
                          "{\"type\":\"text_delta\",\"text\":\"Hi\"}}\n\n"
                          "event: error\n"
                          "data: {\"type\":\"error\",\"error\":{\"type\":\"" +
                          type + "\",\"message\":\"Details here\"}}\n\n");
        ASSERT_EQ(got.size(), 2u) << type;
        EXPECT_EQ(got[1].rfind("error:" + code + ":", 0), 0u) << type << " → " << got[1];
        EXPECT_NE(got[1].find("Details here"), std::string::npos) << got[1];
    }
}

TEST(AnthropicStream, NothingFollowsTheTerminalReport) {
    AnthropicStream stream;
    auto got = decode(
        stream, "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\","
                "\"message\":\"Overloaded\"}}\n\n"
                "event: content_block_delta\n"
                "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
                "{\"type\":\"text_delta\",\"text\":\"late\"}}\n\n"
                "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n");
    EXPECT_EQ(got,
              std::vector<std::string>{"error:server:Anthropic reported an error: Overloaded"});
    EXPECT_TRUE(stream.on_end_of_stream().empty());
    EXPECT_FALSE(stream.produced_output());
}

TEST(AnthropicStream, MalformedEventDataIsABadResponse) {
    AnthropicStream stream;
    auto got = decode(stream, "event: content_block_delta\ndata: {\"type\":\"content_blo\n\n");
    EXPECT_EQ(got,
              std::vector<std::string>{
                  "error:bad_response:malformed event from Anthropic: {\"type\":\"content_blo"});
    EXPECT_TRUE(stream.finished());
}

TEST(AnthropicStream, UnknownEventsAndDeltaTypesAreIgnored) {
    auto got = decode("event: brand_new\ndata: {\"type\":\"brand_new\",\"x\":1}\n\n"
                      "data: {\"type\":\"also_new\"}\n\n"
                      "event: content_block_delta\n"
                      "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
                      "{\"type\":\"citations_delta\",\"citation\":{}}}\n\n"
                      "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n");
    EXPECT_EQ(got, std::vector<std::string>{"done:end_turn"});
}

TEST(AnthropicStream, TheEventNameStandsInForAMissingJsonType) {
    EXPECT_EQ(decode("event: message_stop\ndata: {}\n\n"),
              std::vector<std::string>{"done:end_turn"});
}

TEST(AnthropicStream, EndOfStreamBeforeMessageStopIsAnError) {
    AnthropicStream stream;
    auto got =
        decode(stream, "event: content_block_delta\n"
                       "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
                       "{\"type\":\"text_delta\",\"text\":\"Partial\"}}\n\n"
                       "event: message_delta\n"
                       "data: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},"
                       "\"usage\":{\"output_tokens\":3}}\n\n");
    EXPECT_EQ(got, std::vector<std::string>{"delta:Partial"});
    EXPECT_FALSE(stream.finished());
    std::vector<std::string> end;
    for (const ProviderReport& r : stream.on_end_of_stream())
        end.push_back(describe(r));
    EXPECT_EQ(end, std::vector<std::string>{
                       "error:bad_response:the stream ended before the reply was complete"});
    EXPECT_TRUE(stream.finished());
    EXPECT_TRUE(stream.on_end_of_stream().empty());
}

TEST(AnthropicHttpError, MapsStatusesAndQuotesTheApiMessage) {
    std::string envelope =
        R"({"type":"error","error":{"type":"x","message":"the message"},"request_id":"req_1"})";
    std::vector<std::pair<int, ErrorCode>> cases{
        {400, ErrorCode::bad_response}, {401, ErrorCode::auth},       {403, ErrorCode::auth},
        {404, ErrorCode::bad_response}, {429, ErrorCode::rate_limit}, {500, ErrorCode::server},
        {529, ErrorCode::server},
    };
    for (const auto& [status, code] : cases) {
        Error with_json = anthropic_http_error(status, envelope);
        EXPECT_EQ(with_json.code, code) << status;
        EXPECT_NE(with_json.message.find("HTTP " + std::to_string(status)), std::string::npos)
            << with_json.message;
        EXPECT_NE(with_json.message.find("the message"), std::string::npos) << with_json.message;
        EXPECT_EQ(with_json.message.find("req_1"), std::string::npos) << "only the message";

        Error with_html = anthropic_http_error(status, "<html>\n<h1>Bad gateway</h1>\n</html>");
        EXPECT_EQ(with_html.code, code) << status;
        EXPECT_NE(with_html.message.find("<html> <h1>Bad gateway</h1> </html>"), std::string::npos)
            << with_html.message;
    }
    EXPECT_NE(anthropic_http_error(400, "").message.find("bug in how rio built it"),
              std::string::npos);
    EXPECT_NE(anthropic_http_error(502, "").message.find("(no body)"), std::string::npos);
    Error long_body = anthropic_http_error(500, std::string(100000, 'x'));
    EXPECT_LT(long_body.message.size(), 400u) << "a long body is clipped";
}

} // namespace
} // namespace rio
