// The Responses API codec (issue 49): the request a conversation becomes, and the reports a
// stream of typed events becomes — written from OpenAI's published event reference.
#include "providers/catalog.hpp"
#include "providers/responses_codec.hpp"
#include "tests/support/report_text.hpp"

#include <gtest/gtest.h>

namespace rio::responses_codec_test { // a unity build shares its anonymous namespace
namespace {

using Json = nlohmann::json;

std::string event(Json data) {
    std::string type = data["type"];
    return "event: " + type + "\ndata: " + data.dump() + "\n\n";
}

std::vector<std::string> decode(ResponsesStream& stream, std::string_view bytes,
                                std::size_t chunk_size = 7) {
    SseParser parser;
    std::vector<std::string> out;
    for (std::size_t at = 0; at < bytes.size(); at += chunk_size)
        for (const SseEvent& e : parser.feed(bytes.substr(at, chunk_size)))
            for (const ProviderReport& r : stream.on_event(e))
                out.push_back(test::describe(r));
    return out;
}

std::shared_ptr<const Message> entry(Message m) {
    return std::make_shared<const Message>(std::move(m));
}

Json reasoning_item(const char* encrypted) {
    Json item{{"type", "reasoning"},
              {"id", "rs_1"},
              {"summary", {{{"type", "summary_text"}, {"text", "Read it first."}}}}};
    if (encrypted) item["encrypted_content"] = encrypted;
    return item;
}

std::string completed(Json usage = {{"input_tokens", 1200},
                                    {"input_tokens_details", {{"cached_tokens", 1000}}},
                                    {"output_tokens", 40},
                                    {"total_tokens", 1240}}) {
    return event(
        {{"type", "response.completed"},
         {"sequence_number", 30},
         {"response", {{"id", "resp_1"}, {"status", "completed"}, {"usage", std::move(usage)}}}});
}

// A reply with a reasoning item, a sentence and one call, as the API streams it.
std::string reasoning_text_and_call(const char* encrypted = "gAAAA-enc") {
    Json call{{"type", "function_call"},
              {"id", "fc_1"},
              {"call_id", "call_7"},
              {"name", "read_file"},
              {"arguments", ""}};
    Json done_call = call;
    done_call["arguments"] = R"({"path":"main.cpp"})";
    Json message{{"type", "message"}, {"id", "msg_1"}, {"role", "assistant"}};
    return event({{"type", "response.created"}, {"response", {{"status", "in_progress"}}}}) +
           event({{"type", "response.output_item.added"},
                  {"output_index", 0},
                  {"item", {{"type", "reasoning"}, {"id", "rs_1"}, {"summary", Json::array()}}}}) +
           event({{"type", "response.reasoning_summary_part.added"},
                  {"output_index", 0},
                  {"summary_index", 0}}) +
           event({{"type", "response.reasoning_summary_text.delta"},
                  {"output_index", 0},
                  {"delta", "Read it "}}) +
           event({{"type", "response.reasoning_summary_text.delta"},
                  {"output_index", 0},
                  {"delta", "first."}}) +
           event({{"type", "response.output_item.done"},
                  {"output_index", 0},
                  {"item", reasoning_item(encrypted)}}) +
           event({{"type", "response.output_item.added"}, {"output_index", 1}, {"item", message}}) +
           event({{"type", "response.content_part.added"},
                  {"output_index", 1},
                  {"part", {{"type", "output_text"}, {"text", ""}}}}) +
           event({{"type", "response.output_text.delta"},
                  {"output_index", 1},
                  {"delta", "Let me "}}) +
           event(
               {{"type", "response.output_text.delta"}, {"output_index", 1}, {"delta", "look."}}) +
           event({{"type", "response.output_item.done"},
                  {"output_index", 1},
                  {"item",
                   {{"type", "message"},
                    {"content", {{{"type", "output_text"}, {"text", "Let me look."}}}}}}}) +
           event({{"type", "response.output_item.added"}, {"output_index", 2}, {"item", call}}) +
           event({{"type", "response.function_call_arguments.delta"},
                  {"output_index", 2},
                  {"delta", "{\"path\":"}}) +
           event({{"type", "response.function_call_arguments.delta"},
                  {"output_index", 2},
                  {"delta", "\"main.cpp\"}"}}) +
           event({{"type", "response.function_call_arguments.done"},
                  {"output_index", 2},
                  {"arguments", R"({"path":"main.cpp"})"}}) +
           event({{"type", "response.output_item.done"}, {"output_index", 2}, {"item", done_call}});
}

TEST(ResponsesRequest, SendsTheWholeConversationStatelesslyWithReasoningBack) {
    ProviderRequest request;
    request.system = "You are rio.";
    request.cache_key = "session-1";
    request.tools = {ToolSpec{"read_file", ToolKind::read, "Read a file.",
                              Json{{"type", "object"}, {"properties", Json::object()}}}};
    Json kept{
        {"provider", "openai-responses"},
        {"block",
         {{"type", "reasoning"}, {"summary", Json::array()}, {"encrypted_content", "gAAAA-enc"}}}};
    Json other{{"provider", "anthropic"}, {"block", {{"type", "thinking"}}}};
    request.conversation = {
        entry({Role::user, "Fix the crash", {}, {}, {}, ModeNote::none}),
        entry({Role::assistant,
               "Let me look.",
               {ToolCall{"call_7", "read_file", {{"path", "main.cpp"}}}},
               {},
               {other, kept},
               ModeNote::none}),
        entry({Role::user,
               "",
               {},
               {ToolOutcome{"call_7", "no such file", true, {}, {}}},
               {},
               ModeNote::none}),
    };
    Json body = responses_request(request, {"gpt-5-codex", 4096, "high", true});
    Json want = Json::parse(R"({
      "model": "gpt-5-codex", "max_output_tokens": 4096, "stream": true, "store": false,
      "instructions": "You are rio.",
      "tools": [{"type": "function", "name": "read_file", "description": "Read a file.",
                 "parameters": {"type": "object", "properties": {}}, "strict": false}],
      "tool_choice": "auto", "parallel_tool_calls": true,
      "reasoning": {"summary": "auto", "effort": "high"},
      "include": ["reasoning.encrypted_content"],
      "prompt_cache_key": "session-1",
      "input": [
        {"type": "message", "role": "user",
         "content": [{"type": "input_text", "text": "Fix the crash"}]},
        {"type": "reasoning", "summary": [], "encrypted_content": "gAAAA-enc"},
        {"type": "message", "role": "assistant",
         "content": [{"type": "output_text", "text": "Let me look."}]},
        {"type": "function_call", "call_id": "call_7", "name": "read_file",
         "arguments": "{\"path\":\"main.cpp\"}"},
        {"type": "function_call_output", "call_id": "call_7", "output": "Error: no such file"}
      ]})");
    EXPECT_EQ(body, want) << body.dump(2);
}

TEST(ResponsesRequest, AModelThatDoesNotReasonIsNotAskedForReasoning) {
    ProviderRequest request;
    request.conversation = {entry({Role::user, "hi", {}, {}, {}, ModeNote::none})};
    Json body = responses_request(request, {"gpt-4.1", 100, "", false});
    EXPECT_FALSE(body.contains("reasoning"));
    EXPECT_FALSE(body.contains("include"));
    EXPECT_FALSE(body.contains("tools")) << "a compaction request offers none";
    EXPECT_FALSE(body.contains("prompt_cache_key")) << "only OpenAI's own API takes it";
    EXPECT_TRUE(responses_reasoning("gpt-5", ""));
    EXPECT_TRUE(responses_reasoning("o4-mini", ""));
    EXPECT_FALSE(responses_reasoning("gpt-5-chat-latest", ""));
    EXPECT_TRUE(responses_reasoning("my-local-model", "low"));
}

TEST(ResponsesStream, ReasoningTextAndACallBecomeReportsAndTheItemIsKept) {
    ResponsesStream stream;
    auto reports = decode(stream, reasoning_text_and_call() + completed());
    std::vector<std::string> want = {
        "thinking:Read it ",
        "thinking:first.",
        R"(keep:{"block":{"encrypted_content":"gAAAA-enc","summary":[{"text":"Read it first.","type":"summary_text"}],"type":"reasoning"},"provider":"openai-responses"})",
        "delta:Let me ",
        "delta:look.",
        R"(tool_call:call_7 read_file {"path":"main.cpp"})",
        R"(usage:{"cache_read_input_tokens":1000,"input_tokens":200,"output_tokens":40})",
        "done:tool_use"};
    EXPECT_EQ(reports, want);
    EXPECT_TRUE(stream.finished());
}

TEST(ResponsesStream, AReasoningItemWithoutEncryptedContentIsShownButNotKept) {
    ResponsesStream stream;
    auto reports = decode(stream, reasoning_text_and_call(nullptr) + completed());
    for (const std::string& r : reports)
        EXPECT_EQ(r.rfind("keep:", 0), std::string::npos) << r;
    EXPECT_EQ(reports.front(), "thinking:Read it ");
    EXPECT_EQ(reports.back(), "done:tool_use");
}

TEST(ResponsesStream, UnknownEventTypesAreSkipped) {
    ResponsesStream stream;
    auto reports = decode(
        stream,
        event({{"type", "response.output_item.added"},
               {"output_index", 0},
               {"item", {{"type", "message"}}}}) +
            event({{"type", "response.future_thing.delta"}, {"delta", {{"x", 1}}}}) +
            event({{"type", "response.output_text.delta"}, {"output_index", 0}, {"delta", "Hi"}}) +
            event({{"type", "response.output_text.annotation.added"}, {"output_index", 0}}) +
            completed(Json::object()));
    EXPECT_EQ(reports, (std::vector<std::string>{"delta:Hi", "done:end_turn"}));
}

TEST(ResponsesStream, AStreamCutInsideACallsArgumentsIsAnErrorNamingTheTool) {
    ResponsesStream stream;
    std::string all = reasoning_text_and_call();
    std::string cut = all.substr(0, all.find("\"main.cpp\"}"));
    cut = cut.substr(0, cut.rfind("event:")); // the last whole event: the first piece
    auto reports = decode(stream, cut);
    EXPECT_EQ(std::count_if(reports.begin(), reports.end(),
                            [](const std::string& r) { return r.rfind("tool_call", 0) == 0; }),
              0)
        << "half a call is never reported";
    auto end = stream.on_end_of_stream();
    ASSERT_EQ(end.size(), 1u);
    EXPECT_EQ(test::describe(end[0]),
              "error:bad_response:the stream ended before the reply was complete (in the "
              "arguments of tool 'read_file')");
}

TEST(ResponsesStream, AFailedResponseSaysWhyWithItsCode) {
    auto failed = [](Json error) {
        ResponsesStream stream;
        return decode(stream, event({{"type", "response.failed"},
                                     {"response", {{"status", "failed"}, {"error", error}}}}));
    };
    EXPECT_EQ(failed({{"code", "context_length_exceeded"},
                      {"message", "Your input exceeds the context window of this model."}}),
              (std::vector<std::string>{
                  "error:context_full:the server said the conversation does not fit the model's "
                  "context window: Your input exceeds the context window of this model."}));
    EXPECT_EQ(failed({{"code", "rate_limit_exceeded"}, {"message", "Slow down."}}),
              (std::vector<std::string>{"error:rate_limit:the response failed: Slow down."}));
    EXPECT_EQ(failed({{"code", "server_error"}, {"message", "Oops."}}),
              (std::vector<std::string>{"error:server:the response failed: Oops."}));
    ResponsesStream stream;
    EXPECT_EQ(
        decode(stream, event({{"type", "error"},
                              {"code", "invalid_prompt"},
                              {"message", "Bad input."},
                              {"param", nullptr}})),
        (std::vector<std::string>{"error:bad_response:the server reported an error: Bad input."}));
}

TEST(ResponsesStream, AnIncompleteResponseStopsAtMaxTokensWithoutItsHalfCall) {
    ResponsesStream stream;
    auto reports = decode(
        stream,
        event({{"type", "response.output_item.added"},
               {"output_index", 0},
               {"item", {{"type", "function_call"}, {"call_id", "c"}, {"name", "read_file"}}}}) +
            event({{"type", "response.function_call_arguments.delta"},
                   {"output_index", 0},
                   {"delta", "{\"pa"}}) +
            event({{"type", "response.incomplete"},
                   {"response",
                    {{"status", "incomplete"},
                     {"incomplete_details", {{"reason", "max_output_tokens"}}}}}}));
    EXPECT_EQ(reports, (std::vector<std::string>{"done:max_tokens"}));
}

TEST(ResponsesStream, ACompletedResponseWithoutItemEventsStillGivesItsTextAndCalls) {
    ResponsesStream stream;
    Json output = Json::array(
        {{{"type", "message"}, {"content", {{{"type", "output_text"}, {"text", "Whole."}}}}},
         {{"type", "function_call"},
          {"call_id", "c1"},
          {"name", "list_dir"},
          {"arguments", "{}"}}});
    auto reports =
        decode(stream, event({{"type", "response.completed"},
                              {"response", {{"status", "completed"}, {"output", output}}}}));
    EXPECT_EQ(reports, (std::vector<std::string>{"delta:Whole.", "tool_call:c1 list_dir {}",
                                                 "done:tool_use"}));
}

TEST(ResponsesStream, GarbageIsABadResponse) {
    ResponsesStream stream;
    auto reports = decode(stream, "event: response.output_text.delta\ndata: {\"type\": ???\n\n");
    ASSERT_EQ(reports.size(), 1u);
    EXPECT_EQ(reports[0].rfind("error:bad_response:malformed event from the server", 0), 0u)
        << reports[0];
}

TEST(OpenAiWire, TheModelChoosesTheWireUnlessTheOptionSays) {
    EXPECT_EQ(openai_wire("", "gpt-5-codex"), WireFormat::responses);
    EXPECT_EQ(openai_wire("", "gpt-5.1-codex-max"), WireFormat::responses);
    EXPECT_EQ(openai_wire("", "codex-mini-latest"), WireFormat::responses);
    EXPECT_EQ(openai_wire("", "o3-pro"), WireFormat::responses);
    EXPECT_EQ(openai_wire("", "o4-mini-deep-research"), WireFormat::responses);
    EXPECT_EQ(openai_wire("", "gpt-5"), WireFormat::openai);
    EXPECT_EQ(openai_wire("", "qwen2.5-coder:7b"), WireFormat::openai);
    EXPECT_EQ(openai_wire("", "openai/gpt-5-codex"), WireFormat::openai)
        << "a router serves it on Chat Completions";
    EXPECT_EQ(openai_wire("chat", "gpt-5-codex"), WireFormat::openai);
    EXPECT_EQ(openai_wire("responses", "gpt-4.1"), WireFormat::responses);
}

} // namespace
} // namespace rio::responses_codec_test
