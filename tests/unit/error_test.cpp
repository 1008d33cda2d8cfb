#include "protocol/error.hpp"

#include <gtest/gtest.h>
#include <set>
#include <string>

namespace rio {
namespace {

TEST(ErrorCodes, EveryCodeHasADistinctNameThatRoundTrips) {
    std::set<std::string> names;
    for (ErrorCode code : all_error_codes) {
        std::string name(to_string(code));
        EXPECT_TRUE(names.insert(name).second) << name;
        EXPECT_EQ(error_code_from_string(name), code);
    }
    EXPECT_EQ(names.size(), 17u);
}

TEST(ErrorCodes, TheClosedSetIsExactlyTheDocumentedOne) {
    std::set<std::string> names;
    for (ErrorCode code : all_error_codes)
        names.insert(std::string(to_string(code)));
    std::set<std::string> documented = {
        "bad_request", "unknown_op", "no_project",   "no_buffer",      "not_found", "conflict",
        "io_error",    "refused",    "internal",     "not_configured", "auth",      "rate_limit",
        "server",      "network",    "bad_response", "context_full",   "busy"};
    EXPECT_EQ(names, documented);
    EXPECT_FALSE(error_code_from_string("teapot").has_value());
}

TEST(Result, CarriesAValueOrAnError) {
    Result<int> good = 7;
    ASSERT_TRUE(good.ok());
    EXPECT_EQ(*good, 7);
    Result<int> bad = make_error(ErrorCode::not_found, "no such file: a.txt");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().code, ErrorCode::not_found);
    EXPECT_EQ(bad.error().message, "no such file: a.txt");
}

} // namespace
} // namespace rio
