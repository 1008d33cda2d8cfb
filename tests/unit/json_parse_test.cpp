// Every JSON entry point parses through parse_json: it never throws and bounds nesting.
#include "protocol/json_parse.hpp"
#include "protocol/wire.hpp"

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

TEST(JsonParse, CommentsOnlyWhenAskedFor) {
    std::string text = "{\n  // the provider\n  \"provider\": \"echo\" /* offline */\n}";
    EXPECT_FALSE(parse_json(text).ok());
    auto r = parse_json(text, {.comments = true});
    ASSERT_TRUE(r.ok());
    EXPECT_EQ((*r)["provider"], "echo");
    EXPECT_EQ(refusal_note(parse_json("{").error()), "") << "plain garbage needs no note";
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
