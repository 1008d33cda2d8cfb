#include "providers/openai_codec.hpp"
#include "tests/support/report_text.hpp"

#include <gtest/gtest.h>

namespace rio {
namespace {

using Json = nlohmann::json;

using test::describe;

std::vector<std::string> describe(const std::vector<ProviderReport>& reports) {
    std::vector<std::string> out;
    for (const ProviderReport& r : reports)
        out.push_back(describe(r));
    return out;
}

// One SSE event holding a chat.completion.chunk, shaped as OpenAI sends it (with
// include_usage every chunk carries "usage": null).
std::string chunk(Json delta, Json finish_reason = nullptr) {
    Json c{{"id", "chatcmpl-1"},
           {"object", "chat.completion.chunk"},
           {"created", 1700000000},
           {"model", "gpt-test"},
           {"choices",
            {{{"index", 0},
              {"delta", std::move(delta)},
              {"finish_reason", std::move(finish_reason)}}}},
           {"usage", nullptr}};
    return "data: " + c.dump() + "\n\n";
}

std::string usage_chunk(int prompt, int completion) {
    Json c{{"id", "chatcmpl-1"},
           {"object", "chat.completion.chunk"},
           {"created", 1700000000},
           {"model", "gpt-test"},
           {"choices", Json::array()},
           {"usage",
            {{"prompt_tokens", prompt},
             {"completion_tokens", completion},
             {"total_tokens", prompt + completion}}}};
    return "data: " + c.dump() + "\n\n";
}

Json call_piece(int index, Json function, std::string id = "") {
    Json piece{{"index", index}, {"function", std::move(function)}};
    if (!id.empty()) {
        piece["id"] = id;
        piece["type"] = "function";
    }
    return piece;
}

// Feeds raw SSE bytes through the parser and the decoder, `chunk_size` bytes at a time.
std::vector<std::string> decode(OpenAiStream& stream, std::string_view bytes,
                                std::size_t chunk_size = 5) {
    SseParser parser;
    std::vector<std::string> out;
    for (std::size_t at = 0; at < bytes.size(); at += chunk_size)
        for (const SseEvent& e : parser.feed(bytes.substr(at, chunk_size)))
            for (std::string& r : describe(stream.on_event(e)))
                out.push_back(std::move(r));
    return out;
}

std::shared_ptr<const Message> entry(Message m) {
    return std::make_shared<const Message>(std::move(m));
}

// The same conversation the Anthropic tests encode.
ProviderRequest coding_request() {
    ProviderRequest request;
    request.system = "You are rio.";
    request.tools = {ToolSpec{"read_file", ToolKind::read, "Read a file.",
                              Json{{"type", "object"},
                                   {"properties", {{"path", {{"type", "string"}}}}},
                                   {"required", {"path"}}}}};
    request.conversation = {
        entry({Role::user, "Fix the crash in main.cpp", {}, {}, {}, ModeNote::none}),
        entry(
            {Role::assistant,
             "Let me look.",
             {ToolCall{"call_1", "read_file", {{"path", "main.cpp"}}}},
             {},
             {Json{
                 {"provider", "anthropic"},
                 {"block",
                  {{"type", "thinking"}, {"thinking", "Read it first."}, {"signature", "sig1"}}}}},
             ModeNote::none}),
        entry({Role::user,
               "",
               {},
               {ToolOutcome{"call_1", "int main() { return *p; }", false, {}, {}}},
               {},
               ModeNote::none}),
        entry({Role::assistant,
               "",
               {ToolCall{"call_2", "edit_file", {{"path", "main.cpp"}}},
                ToolCall{"call_3", "run", {{"command", "make test"}}}},
               {},
               {},
               ModeNote::none}),
        entry({Role::user,
               "Also add a test.",
               {},
               {ToolOutcome{"call_2", "edited", false, {}, {}},
                ToolOutcome{"call_3", "exit 1", true, {}, {}}},
               {},
               ModeNote::none}),
    };
    return request;
}

TEST(OpenAiRequest, EncodesAConversationWithToolCallsAndResults) {
    Json body = openai_request(coding_request(), {"gpt-test", 4096, "", false, false});
    Json want = Json::parse(R"({
      "model": "gpt-test", "max_tokens": 4096, "stream": true,
      "stream_options": {"include_usage": true},
      "tools": [{"type": "function", "function": {"name": "read_file", "description": "Read a file.",
                 "parameters": {"type": "object", "properties": {"path": {"type": "string"}},
                                "required": ["path"]}}}],
      "messages": [
        {"role": "system", "content": "You are rio."},
        {"role": "user", "content": "Fix the crash in main.cpp"},
        {"role": "assistant", "content": "Let me look.", "tool_calls": [
          {"id": "call_1", "type": "function",
           "function": {"name": "read_file", "arguments": "{\"path\":\"main.cpp\"}"}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "int main() { return *p; }"},
        {"role": "assistant", "content": null, "tool_calls": [
          {"id": "call_2", "type": "function",
           "function": {"name": "edit_file", "arguments": "{\"path\":\"main.cpp\"}"}},
          {"id": "call_3", "type": "function",
           "function": {"name": "run", "arguments": "{\"command\":\"make test\"}"}}]},
        {"role": "tool", "tool_call_id": "call_2", "content": "edited"},
        {"role": "tool", "tool_call_id": "call_3", "content": "Error: exit 1"},
        {"role": "user", "content": "Also add a test."}
      ]})");
    EXPECT_EQ(body, want) << body.dump(2);
}

TEST(OpenAiRequest, OmitsAnEmptySystemPromptAndSendsEffortOnlyWhenSet) {
    ProviderRequest request;
    request.conversation = {entry({Role::user, "hi", {}, {}, {}, ModeNote::none}),
                            entry({Role::assistant, "", {}, {}, {}, ModeNote::none}),
                            entry({Role::user, "again", {}, {}, {}, ModeNote::none})};
    Json plain = openai_request(request, {"m", 100, "", false, false});
    EXPECT_FALSE(plain.contains("reasoning_effort"));
    EXPECT_FALSE(plain.contains("tools"));
    EXPECT_EQ(plain["messages"], Json::parse(R"([{"role": "user", "content": "hi"},
                              {"role": "assistant", "content": ""},
                              {"role": "user", "content": "again"}])"))
        << "roles keep alternating";
    EXPECT_EQ(openai_request(request, {"m", 100, "high", false, false})["reasoning_effort"],
              "high");
}

TEST(OpenAiRequest, OpenAiItselfGetsMaxCompletionTokens_LocalServersMaxTokens) {
    ProviderRequest request;
    request.conversation = {entry({Role::user, "hi", {}, {}, {}, ModeNote::none})};
    Json local = openai_request(request, {"llama3", 100, "", false, false});
    EXPECT_EQ(local["max_tokens"], 100);
    EXPECT_FALSE(local.contains("max_completion_tokens"));
    Json hosted = openai_request(request, {"gpt-5", 100, "", true, true});
    EXPECT_EQ(hosted["max_completion_tokens"], 100);
    EXPECT_FALSE(hosted.contains("max_tokens"));
}

// Decision 0053: OpenAI caches a byte-identical prefix by itself. A step's request repeats the
// previous one's messages and tools exactly (no timestamps, nothing reordered), and OpenAI
// itself gets the session id as prompt_cache_key; other servers never see the field.
TEST(OpenAiRequest, AStepRepeatsThePreviousPrefixAndOpenAiGetsTheCacheKey) {
    ProviderRequest step1 = coding_request();
    step1.conversation.resize(3);
    step1.cache_key = "20250101-abc";
    ProviderRequest step2 = coding_request();
    step2.cache_key = "20250101-abc";
    Json one = openai_request(step1, {"gpt-5", 100, "", true, true});
    Json two = openai_request(step2, {"gpt-5", 100, "", true, true});
    EXPECT_EQ(one["tools"].dump(), two["tools"].dump());
    for (std::size_t i = 0; i < one["messages"].size(); ++i)
        EXPECT_EQ(one["messages"][i].dump(), two["messages"][i].dump()) << "message " << i;
    EXPECT_EQ(one["prompt_cache_key"], "20250101-abc");
    Json local = openai_request(step1, {"llama3", 100, "", false, false});
    EXPECT_FALSE(local.contains("prompt_cache_key"));
}

TEST(OpenAiStream, CachedTokensAreCountedApartFromTheUncachedInput) {
    OpenAiStream stream;
    Json c{{"choices", Json::array()},
           {"usage",
            {{"prompt_tokens", 1000},
             {"completion_tokens", 5},
             {"prompt_tokens_details", {{"cached_tokens", 800}}}}}};
    stream.on_event(SseEvent{"message", c.dump()});
    std::vector<ProviderReport> end = stream.on_event(SseEvent{"message", "[DONE]"});
    ASSERT_FALSE(end.empty());
    EXPECT_EQ(
        end.front().data,
        Json({{"input_tokens", 200}, {"cache_read_input_tokens", 800}, {"output_tokens", 5}}));
}

TEST(OpenAiStream, AssemblesTwoToolCallsInterleavedByIndex) {
    std::string bytes =
        chunk({{"role", "assistant"}, {"content", ""}}) + chunk({{"content", "Fixing "}}) +
        chunk({{"content", "it."}}) +
        chunk({{"tool_calls",
                {call_piece(0, {{"name", "edit_file"}, {"arguments", ""}}, "call_abc")}}}) +
        chunk({{"tool_calls", {call_piece(1, {{"name", "run"}, {"arguments", ""}}, "call_def")}}}) +
        chunk({{"tool_calls", {call_piece(0, {{"arguments", "{\"pa"}})}}}) +
        chunk({{"tool_calls", {call_piece(1, {{"arguments", "{\"command\": "}})}}}) +
        chunk({{"tool_calls",
                {call_piece(0, {{"arguments", "th\": \"main.c"}}),
                 call_piece(1, {{"arguments", "\"make test\"}"}})}}}) +
        chunk({{"tool_calls", {call_piece(0, {{"arguments", "pp\"}"}})}}}) +
        chunk(Json::object(), "tool_calls") + usage_chunk(900, 42) + "data: [DONE]\n\n";
    OpenAiStream stream;
    std::vector<std::string> got = decode(stream, bytes);
    EXPECT_EQ(got, (std::vector<std::string>{
                       "delta:Fixing ",
                       "delta:it.",
                       R"(tool_call:call_abc edit_file {"path":"main.cpp"})",
                       R"(tool_call:call_def run {"command":"make test"})",
                       R"(usage:{"input_tokens":900,"output_tokens":42})",
                       "done:tool_use",
                   }));
    EXPECT_TRUE(stream.finished());
    EXPECT_TRUE(stream.on_end_of_stream().empty());
}

TEST(OpenAiStream, WaitsForUsageAndDoneAfterTheFinishReason) {
    OpenAiStream stream;
    EXPECT_EQ(decode(stream, chunk({{"content", "Hi"}}, "stop")),
              std::vector<std::string>{"delta:Hi"});
    EXPECT_FALSE(stream.finished());
    EXPECT_TRUE(decode(stream, usage_chunk(5, 1)).empty()) << "usage is held for done";
    EXPECT_EQ(decode(stream, "data: [DONE]\n\n"),
              (std::vector<std::string>{R"(usage:{"input_tokens":5,"output_tokens":1})",
                                        "done:end_turn"}));
    EXPECT_TRUE(stream.finished());
}

TEST(OpenAiStream, ReasoningContentIsThinking) {
    OpenAiStream stream;
    auto got = decode(
        stream,
        chunk({{"role", "assistant"}, {"content", nullptr}, {"reasoning_content", "Let me "}}) +
            chunk({{"content", nullptr}, {"reasoning_content", "think."}}) +
            chunk({{"reasoning", "vLLM's name."}}) +
            chunk({{"content", "Done."}, {"reasoning_content", nullptr}}) +
            chunk(Json::object(), "stop") + "data: [DONE]\n\n");
    EXPECT_EQ(got,
              (std::vector<std::string>{"thinking:Let me ", "thinking:think.",
                                        "thinking:vLLM's name.", "delta:Done.", "done:end_turn"}));
    EXPECT_TRUE(stream.produced_output());
}

TEST(OpenAiStream, EndOfStreamAfterAFinishReasonCompletesTheReply) {
    // Ollama style: usage on the finishing chunk and no [DONE].
    Json last{
        {"id", "x"},
        {"object", "chat.completion.chunk"},
        {"choices", {{{"index", 0}, {"delta", {{"content", "!"}}}, {"finish_reason", "length"}}}},
        {"usage", {{"prompt_tokens", 7}, {"completion_tokens", 100}}}};
    OpenAiStream stream;
    EXPECT_EQ(decode(stream, chunk({{"content", "Hello"}}) + "data: " + last.dump() + "\n\n"),
              (std::vector<std::string>{"delta:Hello", "delta:!"}));
    EXPECT_FALSE(stream.finished()) << "still waiting for [DONE]";
    EXPECT_EQ(describe(stream.on_end_of_stream()),
              (std::vector<std::string>{R"(usage:{"input_tokens":7,"output_tokens":100})",
                                        "done:max_tokens"}));
    EXPECT_TRUE(stream.finished());
}

TEST(OpenAiStream, EndOfStreamWithoutAFinishReasonIsAnError) {
    OpenAiStream stream;
    decode(stream, chunk({{"content", "Half a sen"}}) +
                       chunk({{"tool_calls", {call_piece(0, {{"name", "run"}}, "c1")}}}));
    EXPECT_TRUE(stream.produced_output());
    EXPECT_EQ(describe(stream.on_end_of_stream()),
              std::vector<std::string>{
                  "error:bad_response:the stream ended before the reply was complete"});
    EXPECT_TRUE(stream.on_end_of_stream().empty());
}

TEST(OpenAiStream, MissingIdsAreSynthesisedFromTheIndex) {
    // A local server: no ids, whole calls in one chunk, and "stop" despite the calls.
    Json calls = Json::array(
        {{{"index", 0}, {"function", {{"name", "list"}, {"arguments", "{}"}}}},
         {{"index", 1}, {"function", {{"name", "read_file"}, {"arguments", "{\"path\":\"a\"}"}}}}});
    OpenAiStream stream;
    auto got = decode(stream, chunk({{"tool_calls", calls}}) + chunk(Json::object(), "stop") +
                                  "data: [DONE]\n\n");
    EXPECT_EQ(got, (std::vector<std::string>{R"(tool_call:call_0 list {})",
                                             R"(tool_call:call_1 read_file {"path":"a"})",
                                             "done:tool_use"}));
}

TEST(OpenAiStream, EmptyArgumentsMeanNoArguments) {
    OpenAiStream stream;
    auto got = decode(
        stream,
        chunk({{"tool_calls", {call_piece(0, {{"name", "list"}, {"arguments", ""}}, "c1")}}}) +
            chunk(Json::object(), "tool_calls") + "data: [DONE]\n\n");
    EXPECT_EQ(got, (std::vector<std::string>{"tool_call:c1 list {}", "done:tool_use"}));
}

TEST(OpenAiStream, UnparsableArgumentsAreABadResponse) {
    OpenAiStream stream;
    auto got = decode(
        stream, chunk({{"tool_calls",
                        {call_piece(0, {{"name", "run"}, {"arguments", "{\"comm"}}, "c1")}}}) +
                    chunk(Json::object(), "length") + "data: [DONE]\n\n");
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].rfind("error:bad_response:the server sent arguments for tool 'run'", 0), 0u)
        << got[0];
    EXPECT_TRUE(stream.finished());
}

TEST(OpenAiStream, NormalisesFinishReasons) {
    std::vector<std::pair<std::string, std::string>> cases{
        {"stop", "end_turn"},          {"tool_calls", "tool_use"},         {"length", "max_tokens"},
        {"content_filter", "refusal"}, {"something_new", "something_new"},
    };
    for (const auto& [finish, reason] : cases) {
        OpenAiStream stream;
        auto got = decode(stream, chunk({{"content", "x"}}, finish) + "data: [DONE]\n\n");
        EXPECT_EQ(got, (std::vector<std::string>{"delta:x", "done:" + reason})) << finish;
    }
}

TEST(OpenAiStream, AnErrorObjectInTheStreamIsAnError) {
    struct Case {
        std::string data;
        std::string want;
    };
    std::vector<Case> cases{
        {R"({"error": {"message": "The server had an error", "type": "server_error", "param": null, "code": null}})",
         "error:server:the server reported an error: The server had an error"},
        {R"({"error": {"message": "Rate limit reached", "type": "requests", "code": "rate_limit_exceeded"}})",
         "error:rate_limit:the server reported an error: Rate limit reached"},
        {R"({"error": {"object": "error", "message": "context too long", "type": "BadRequestError", "code": 400}})",
         "error:bad_response:the server reported an error: context too long"},
        {R"({"error": "model crashed"})",
         "error:server:the server reported an error: model crashed"},
    };
    for (const Case& c : cases) {
        OpenAiStream stream;
        auto got = decode(stream, chunk({{"content", "Hi"}}) + "data: " + c.data + "\n\n" +
                                      chunk({{"content", "late"}}) + "data: [DONE]\n\n");
        EXPECT_EQ(got, (std::vector<std::string>{"delta:Hi", c.want})) << c.data;
        EXPECT_TRUE(stream.finished());
    }
}

TEST(OpenAiStream, MalformedChunkIsABadResponse) {
    OpenAiStream stream;
    EXPECT_EQ(decode(stream, "data: {\"choices\": [\n\n"),
              std::vector<std::string>{
                  "error:bad_response:malformed chunk from the server: {\"choices\": ["});
    EXPECT_TRUE(stream.finished());
}

TEST(OpenAiHttpError, MapsStatusesAndQuotesTheServerMessage) {
    std::vector<std::pair<int, ErrorCode>> cases{
        {400, ErrorCode::bad_response}, {401, ErrorCode::auth},       {403, ErrorCode::auth},
        {404, ErrorCode::bad_response}, {429, ErrorCode::rate_limit}, {500, ErrorCode::server},
        {529, ErrorCode::server},
    };
    std::string envelope =
        R"({"error": {"message": "the message", "type": "invalid_request_error", "param": null, "code": "x"}})";
    for (const auto& [status, code] : cases) {
        for (const std::string& body : {envelope, std::string(R"({"error": "the message"})"),
                                        std::string(R"({"detail": "the message"})")}) {
            Error e = openai_http_error(status, body);
            EXPECT_EQ(e.code, code) << status;
            EXPECT_NE(e.message.find("HTTP " + std::to_string(status)), std::string::npos)
                << e.message;
            EXPECT_NE(e.message.find(": the message"), std::string::npos) << e.message;
        }
        Error plain = openai_http_error(status, "upstream connect error\n");
        EXPECT_EQ(plain.code, code) << status;
        EXPECT_NE(plain.message.find(": upstream connect error"), std::string::npos)
            << plain.message;
    }
    EXPECT_NE(openai_http_error(400, "{}").message.find("bug in how rio built it"),
              std::string::npos);
    EXPECT_NE(openai_http_error(503, "").message.find("(no body)"), std::string::npos);
}

// Issue 49: OpenAI's refusal of a Responses-only model on Chat Completions says what fixes it.
TEST(OpenAiErrors, AResponsesOnlyModelIsToldToUseTheResponsesWire) {
    Error e = openai_http_error(
        400, R"({"error": {"message": "This model is only supported in v1/responses and not in )"
             R"(v1/chat/completions.", "type": "invalid_request_error", "param": "model"}})");
    EXPECT_EQ(e.code, ErrorCode::bad_response);
    EXPECT_NE(e.message.find("set the openai provider's wire option to responses"),
              std::string::npos)
        << e.message;
}

} // namespace
} // namespace rio
