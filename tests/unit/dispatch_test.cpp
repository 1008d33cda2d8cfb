#include "core/dispatch.hpp"
#include "protocol/json_text.hpp"
#include "protocol/params.hpp"

#include <random>

#include <gtest/gtest.h>

namespace rio {
namespace {

Json reply(const Dispatcher& d, std::string_view line) {
    std::string out;
    int responses = 0;
    d.handle(line, 1, [&](std::string response) {
        out = std::move(response);
        ++responses;
    });
    EXPECT_EQ(responses, 1) << "exactly one response per request";
    EXPECT_EQ(out.back(), '\n') << "a response is one line";
    EXPECT_EQ(out.find('\n'), out.size() - 1) << "a response is one line";
    return Json::parse(out);
}

std::string code_of(const Json& response) {
    return response["error"]["code"];
}

Dispatcher sample() {
    Dispatcher d;
    d.add("echo.text", [](const Call& call) -> Result<Json> {
        return Json{{"text", require_string(call.params, "text")}, {"client", call.client}};
    });
    d.add("always.conflict", [](const Call&) -> Result<Json> {
        return make_error(ErrorCode::conflict, "it changed");
    });
    d.add("throws.logic", [](const Call&) -> Result<Json> { throw std::logic_error("boom"); });
    return d;
}

TEST(Dispatch, RoutesToTheRegisteredHandlerAndEchoesTheId) {
    Dispatcher d = sample();
    Json r = reply(d, R"({"id": 7, "op": "echo.text", "params": {"text": "hi"}})");
    EXPECT_EQ(r["id"], 7);
    EXPECT_EQ(r["ok"], true);
    EXPECT_EQ(r["result"]["text"], "hi");
    EXPECT_EQ(r["result"]["client"], 1);
    Json s = reply(d, R"({"id": "abc", "op": "echo.text", "params": {"text": "x"}})");
    EXPECT_EQ(s["id"], "abc");
}

TEST(Dispatch, ListsOpsSorted) {
    EXPECT_EQ(sample().ops(),
              (std::vector<std::string>{"always.conflict", "echo.text", "throws.logic"}));
}

TEST(Dispatch, RegisteringAnOpTwiceIsAProgrammingError) {
    Dispatcher d = sample();
    EXPECT_THROW(d.add("echo.text", nullptr), std::logic_error);
}

TEST(Dispatch, MalformedJsonIsABadRequestWithNullId) {
    Json r = reply(sample(), R"({"id": 1, "op": )");
    EXPECT_EQ(r["ok"], false);
    EXPECT_TRUE(r["id"].is_null());
    EXPECT_EQ(code_of(r), "bad_request");
    EXPECT_NE(r["error"]["message"].get<std::string>().find("invalid JSON"), std::string::npos);
}

TEST(Dispatch, NonObjectAndMissingFieldsAreBadRequests) {
    Dispatcher d = sample();
    EXPECT_EQ(code_of(reply(d, "[1,2]")), "bad_request");
    EXPECT_EQ(code_of(reply(d, R"({"op": "echo.text"})")), "bad_request");
    EXPECT_EQ(code_of(reply(d, R"({"id": 1.5, "op": "echo.text"})")), "bad_request");
    Json no_op = reply(d, R"({"id": 3})");
    EXPECT_EQ(code_of(no_op), "bad_request");
    EXPECT_EQ(no_op["id"], 3) << "a readable id is echoed even when the request is bad";
    EXPECT_EQ(code_of(reply(d, R"({"id": 4, "op": "echo.text", "params": [1]})")), "bad_request");
}

// JSONTestSuite's finding: nlohmann stops at a NUL byte, so the request before it ran.
TEST(Dispatch, ANulByteAnywhereInALineIsABadRequestNamingItAndNothingRuns) {
    int runs = 0;
    Dispatcher d;
    d.add("count", [&](const Call&) -> Result<Json> {
        ++runs;
        return Json::object();
    });
    using namespace std::string_literals;
    for (std::string line : {R"({"id":1,"op":"count"})"s + '\0' + "{junk",
                             R"({"id":1,"op":"count"})"s + '\0',
                             R"({"id":1,"op":"co)"s + '\0' + R"(unt"})",
                             '\0' + R"({"id":1,"op":"count"})"s}) {
        Json r = reply(d, line);
        EXPECT_EQ(code_of(r), "bad_request") << r.dump();
        EXPECT_TRUE(r["id"].is_null()) << "nothing in a line holding a NUL is trusted";
        EXPECT_NE(r["error"]["message"].get<std::string>().find("a NUL byte at byte"),
                  std::string::npos)
            << r.dump();
    }
    EXPECT_EQ(runs, 0);
    EXPECT_EQ(reply(d, R"({"id":1,"op":"count","params":{"s":"\u0000"}})")["ok"], true)
        << "an escaped NUL inside a string is JSON";
    EXPECT_EQ(runs, 1);
}

TEST(Dispatch, AbsentParamsAreAnEmptyObjectAndAnyOtherNonObjectIsRefused) {
    int runs = 0;
    Dispatcher d;
    d.add("count", [&](const Call& call) -> Result<Json> {
        ++runs;
        return Json{{"params", call.params}};
    });
    EXPECT_EQ(reply(d, R"({"id":1,"op":"count"})")["result"]["params"], Json::object());
    for (const char* params : {"null", "[]", "1", "\"x\"", "true"}) {
        Json r = reply(d, std::string(R"({"id":2,"op":"count","params":)") + params + "}");
        EXPECT_EQ(code_of(r), "bad_request") << params;
        EXPECT_EQ(r["id"], 2);
        EXPECT_NE(r["error"]["message"].get<std::string>().find("\"params\" must be a JSON object"),
                  std::string::npos)
            << r.dump();
    }
    EXPECT_EQ(runs, 1);
}

TEST(Dispatch, UnknownOpNamesTheOp) {
    Json r = reply(sample(), R"({"id": 1, "op": "no.such"})");
    EXPECT_EQ(code_of(r), "unknown_op");
    EXPECT_EQ(r["error"]["message"], "unknown op 'no.such'");
}

TEST(Dispatch, AMissingOrMistypedParamIsABadRequestNamingIt) {
    Dispatcher d = sample();
    Json missing = reply(d, R"({"id": 1, "op": "echo.text"})");
    EXPECT_EQ(code_of(missing), "bad_request");
    EXPECT_EQ(missing["error"]["message"], "echo.text: params.text is required");
    Json mistyped = reply(d, R"({"id": 1, "op": "echo.text", "params": {"text": 5}})");
    EXPECT_EQ(mistyped["error"]["message"],
              "echo.text: params.text: expected a string, got number");
}

TEST(Dispatch, AHandlerErrorKeepsItsCode) {
    Json r = reply(sample(), R"({"id": 1, "op": "always.conflict"})");
    EXPECT_EQ(code_of(r), "conflict");
    EXPECT_EQ(r["error"]["message"], "it changed");
}

TEST(Dispatch, AnUnexpectedExceptionIsInternalAndNamesTheOp) {
    Json r = reply(sample(), R"({"id": 1, "op": "throws.logic"})");
    EXPECT_EQ(code_of(r), "internal");
    EXPECT_EQ(r["error"]["message"], "throws.logic failed unexpectedly: boom");
}

TEST(Dispatch, AnAsyncOpAnswersLaterWithItsId) {
    Dispatcher d;
    Reply later;
    d.add_async("slow.op", [&](const Call&, Reply reply) { later = std::move(reply); });
    std::vector<std::string> out;
    d.handle(R"({"id": 9, "op": "slow.op"})", 1, [&](std::string line) { out.push_back(line); });
    EXPECT_TRUE(out.empty()) << "no answer until the op replies";
    later(Json{{"done", true}});
    later(Json{{"done", false}}); // a second reply is ignored
    ASSERT_EQ(out.size(), 1u);
    Json r = Json::parse(out[0]);
    EXPECT_EQ(r["id"], 9);
    EXPECT_EQ(r["result"]["done"], true);
}

TEST(Dispatch, OversizeRefusalIsABadRequestStatingTheLimit) {
    Json r = Json::parse(sample().refuse_oversize(20, 10));
    EXPECT_EQ(code_of(r), "bad_request");
    EXPECT_TRUE(r["id"].is_null());
    EXPECT_NE(r["error"]["message"].get<std::string>().find("limit of 10 bytes"),
              std::string::npos);
}

TEST(Protocol, EventsAreOneLineWithNameAndParams) {
    std::string line = format_event("buffer.changed", Json{{"path", "a\nb"}});
    EXPECT_EQ(line.find('\n'), line.size() - 1);
    Json e = Json::parse(line);
    EXPECT_EQ(e["event"], "buffer.changed");
    EXPECT_EQ(e["params"]["path"], "a\nb");
}

// fs.search writes its reply as text (decision 0050): it must be what the document gave.
TEST(Protocol, JsonWrittenAsTextIsWhatNlohmannDumps) {
    std::mt19937 rng(27);
    const std::string pieces[] = {"\"", "\\", "\n", "\t", "\x01", "\x1f", " ", "a", "é",
                                  "€", "\x7f", "/", "abcdefgh", "\r\n"};
    for (int round = 0; round < 2000; ++round) {
        std::string text;
        for (std::size_t n = rng() % 40; n > 0; --n)
            text += pieces[rng() % std::size(pieces)];
        std::string out;
        append_json_string(out, text);
        ASSERT_EQ(out, Json(text).dump()) << Json(text).dump();
    }
    std::string number;
    append_json_number(number, 18446744073709551615ull);
    EXPECT_EQ(number, "18446744073709551615");
}

TEST(Dispatch, AnOpWritingItsResultAsTextAnswersAsADocumentWould) {
    Dispatcher d;
    d.add_text("text.op", [](const Call& call, std::string& line) -> Status {
        if (call.params.contains("fail")) return make_error(ErrorCode::conflict, "no");
        line += R"({"a":[1,"x"]})";
        return Ok{};
    });
    EXPECT_EQ(reply(d, R"({"id": "q", "op": "text.op"})"),
              Json::parse(format_result("q", Json{{"a", {1, "x"}}})));
    Json failed = reply(d, R"({"id": 3, "op": "text.op", "params": {"fail": true}})");
    EXPECT_EQ(code_of(failed), "conflict");
    EXPECT_EQ(d.ops(), std::vector<std::string>{"text.op"});
}

TEST(Protocol, InvalidUtf8NeverBreaksFormatting) {
    std::string line = format_result(1, Json{{"text", std::string("ok\xff")}});
    EXPECT_EQ(Json::parse(line)["result"]["text"], "ok\uFFFD");
}

} // namespace
} // namespace rio
