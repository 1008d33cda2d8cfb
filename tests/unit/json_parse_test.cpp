// Every JSON entry point parses through parse_json: it never throws and bounds nesting.
#include "host/files/json_file.hpp"
#include "protocol/json_parse.hpp"
#include "protocol/jsonc.hpp"
#include "protocol/wire.hpp"
#include "tests/support/temp_dir.hpp"

#include <fstream>
#include <gtest/gtest.h>

namespace rio {
namespace {

std::string nested(std::size_t depth, std::string_view leaf = "1") {
    return std::string(depth, '[') + std::string(leaf) + std::string(depth, ']');
}

TEST(JsonParse, AnOverflowingNumberIsAnErrorNotAnException) {
    auto r = parse_json(R"({"x": 1E400})");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::bad_request);
    EXPECT_EQ(r.error().message, "invalid JSON: number overflow parsing '1E400'");
}

TEST(JsonParse, NestingPastTheLimitIsRefusedBeforeAnythingIsBuilt) {
    auto deep = parse_json(nested(100'000));
    ASSERT_FALSE(deep.ok());
    EXPECT_EQ(deep.error().message, "JSON nested deeper than 256 levels");
    EXPECT_EQ(refusal_note(deep.error()), " (JSON nested deeper than 256 levels)");
    EXPECT_TRUE(parse_json(nested(256)).ok());
    EXPECT_FALSE(parse_json(nested(257)).ok());
    EXPECT_FALSE(parse_json(std::string(300, '{')).ok()) << "unbalanced counts too";
}

TEST(JsonParse, BracketsInsideStringsAreText) {
    std::string text = "[\"" + std::string(1000, '[') + "\\\"" + std::string(1000, '{') + "\"]";
    auto r = parse_json(text);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ((*r)[0].get<std::string>().size(), 2001u);
}

TEST(JsonParse, JsoncOnlyWhenAskedFor) {
    std::string text = "{\n  // the provider\n  \"provider\": \"echo\" /* offline */\n}";
    EXPECT_FALSE(parse_json(text).ok());
    auto r = parse_json(text, {.jsonc = true});
    ASSERT_TRUE(r.ok());
    EXPECT_EQ((*r)["provider"], "echo");
    EXPECT_EQ(refusal_note(parse_json("{").error()), "") << "plain garbage needs no note";
}

TEST(Jsonc, CommentsAndTrailingCommasAreAccepted) {
    std::string text = "{\n"
                       "  // the provider\n"
                       "  \"provider\": \"openai\", /* a block\n comment */\n"
                       "  \"list\": [1, 2, 3,],\n"
                       "  \"nested\": {\"a\": true, /* last */ },\n"
                       "}\n";
    auto r = parse_json(text, {.jsonc = true});
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(*r, Json::parse(R"({"provider":"openai","list":[1,2,3],"nested":{"a":true}})"));
    EXPECT_FALSE(parse_json(text).ok()) << "plain JSON stays strict";
}

TEST(Jsonc, StringsAreUntouched) {
    std::string text = R"({"base_url": "http://127.0.0.1:11434/v1", "a": "/* not */", )"
                       R"("b": "x,]", "c": "q\"//", "d": "\\"} // end)";
    auto r = parse_json(text, {.jsonc = true});
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ((*r)["base_url"], "http://127.0.0.1:11434/v1");
    EXPECT_EQ((*r)["a"], "/* not */");
    EXPECT_EQ((*r)["b"], "x,]");
    EXPECT_EQ((*r)["c"], "q\"//");
    EXPECT_EQ((*r)["d"], "\\");
}

TEST(Jsonc, PositionsStayWhereTheyWereInTheFile) {
    auto converted = jsonc_to_json("{ /* a\nb */ \"x\": 1, // c\n}");
    ASSERT_TRUE(converted.ok());
    EXPECT_EQ(*converted, "{     \n     \"x\": 1      \n}");
    // An error after comments names the line as written.
    auto bad =
        parse_json("{\n  // one\n  /* two\n  three */\n  \"x\": 1\n  \"y\": 2\n}", {.jsonc = true});
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("line 6"), std::string::npos) << bad.error().message;
    auto open = parse_json("{\n\"x\": 1 /* never closed\n}", {.jsonc = true});
    ASSERT_FALSE(open.ok());
    EXPECT_EQ(open.error().message, "invalid JSON: a /* comment on line 2 is never closed");
}

TEST(Jsonc, ACommaWithNoValueBeforeItIsStillAnError) {
    EXPECT_FALSE(parse_json("[,]", {.jsonc = true}).ok());
    EXPECT_FALSE(parse_json("[1,,]", {.jsonc = true}).ok());
    EXPECT_FALSE(parse_json("{,}", {.jsonc = true}).ok());
    EXPECT_TRUE(parse_json("[1 , /* x */ ]", {.jsonc = true}).ok());
}

TEST(Jsonc, ASettingsFileTakesCommentsAndItsErrorsNameFileAndLine) {
    test::TempDir dir;
    auto path = dir.path() / "config.json";
    std::ofstream(path)
        << "{\n  // mine\n  \"provider\": \"openai\", // \"url\": \"http://x\"\n}\n";
    auto loaded = load_json_file(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    EXPECT_EQ(*loaded, Json({{"provider", "openai"}}));
    std::ofstream(path) << "{\n  /* two\n     lines */\n  \"provider\" \"openai\"\n}\n";
    auto bad = load_json_file(path);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().message.rfind(path.string() + ": invalid JSON: ", 0), 0u)
        << bad.error().message;
    EXPECT_NE(bad.error().message.find("line 4"), std::string::npos) << bad.error().message;
}

TEST(ParseRequest, AnOverflowingNumberAnywhereIsABadRequest) {
    auto r = parse_request(R"({"id":1,"op":"session.hello","params":{"x":1E400}})");
    auto* error = std::get_if<RequestError>(&r);
    ASSERT_NE(error, nullptr);
    EXPECT_EQ(error->error.code, ErrorCode::bad_request);
}

TEST(ParseRequest, DeepNestingInParamsOrIdIsABadRequest) {
    for (std::string line : {R"({"id":1,"op":"x","params":{"a":)" + nested(90'000) + "}}",
                             R"({"id":)" + nested(90'000) + R"(,"op":"x"})"}) {
        auto r = parse_request(line);
        auto* error = std::get_if<RequestError>(&r);
        ASSERT_NE(error, nullptr);
        EXPECT_EQ(error->error.message, "JSON nested deeper than 256 levels");
    }
}

} // namespace
} // namespace rio
