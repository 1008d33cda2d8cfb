// jsonrpc/: the one JSON-RPC 2.0 parse and writer that LSP, MCP and ACP share — how each
// kind of message is told apart, each way a message is invalid with its code, and the four
// kinds written. The protocols' own rules on top (ACP's object params, MCP's and LSP's own
// ids) are tested beside them.
#include "jsonrpc/json_rpc.hpp"

#include <gtest/gtest.h>

namespace rio::jsonrpc {
namespace json_rpc_test {

int code_of(std::string_view text) {
    auto message = parse(text);
    auto* bad = std::get_if<Invalid>(&message);
    return bad ? bad->code : 0;
}

TEST(JsonRpc, RequestsNotificationsAndResponsesAreTold) {
    auto request = parse(R"({"jsonrpc":"2.0","id":"7","method":"workspace/configuration"})");
    ASSERT_TRUE(std::holds_alternative<Request>(request));
    EXPECT_EQ(std::get<Request>(request).id, Json("7"));
    EXPECT_FALSE(std::get<Request>(request).notification());
    EXPECT_TRUE(std::get<Request>(request).params.is_null()) << "absent params: null";

    auto note = parse(R"({"jsonrpc":"2.0","method":"$/progress","params":[1]})");
    ASSERT_TRUE(std::holds_alternative<Request>(note));
    EXPECT_TRUE(std::get<Request>(note).notification());
    EXPECT_EQ(std::get<Request>(note).params, Json::array({1})) << "JSON-RPC allows arrays";

    auto answer = parse(R"({"result":null,"jsonrpc":"2.0","id":3})");
    ASSERT_TRUE(std::holds_alternative<Response>(answer));
    EXPECT_TRUE(std::get<Response>(answer).ok());
    EXPECT_EQ(std::get<Response>(answer).own_id(), 3);
    EXPECT_TRUE(std::get<Response>(answer).result.is_null()) << "null: nothing here";

    auto refused = parse(R"({"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"no"}})");
    ASSERT_TRUE(std::holds_alternative<Response>(refused));
    EXPECT_FALSE(std::get<Response>(refused).ok());
    EXPECT_EQ(std::get<Response>(refused).error->code, -32601);
    EXPECT_EQ(std::get<Response>(refused).error->message, "no");

    auto theirs = parse(R"({"jsonrpc":"2.0","id":"x","result":1})");
    EXPECT_EQ(std::get<Response>(theirs).own_id(), std::nullopt)
        << "rio numbers its requests: a string id answers nothing it sent";
}

// JSON-RPC (and ACP's RequestId) allow a null id: such a request is answered, with null.
// Only a message without an id at all is a notification.
TEST(JsonRpc, ARequestWithANullIdIsARequestNotANotification) {
    auto request = parse(R"({"jsonrpc":"2.0","id":null,"method":"session/cancel"})");
    ASSERT_TRUE(std::holds_alternative<Request>(request));
    const Request& r = std::get<Request>(request);
    EXPECT_FALSE(r.notification());
    ASSERT_TRUE(r.id);
    EXPECT_TRUE(r.id->is_null());
    // A response with a null id is the other side's error about a message it could not read:
    // a response, never answered.
    auto reply = parse(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}})");
    ASSERT_TRUE(std::holds_alternative<Response>(reply));
    EXPECT_EQ(std::get<Response>(reply).own_id(), std::nullopt);
}

TEST(JsonRpc, EachWayAMessageIsInvalidHasItsCodeAndWords) {
    EXPECT_EQ(code_of("{oops"), code::parse_error);
    EXPECT_EQ(code_of("[]"), code::invalid_request) << "no batches";
    EXPECT_EQ(code_of("[1]"), code::invalid_request);
    EXPECT_EQ(code_of("7"), code::invalid_request);
    EXPECT_EQ(code_of(R"({"id":1,"method":"x"})"), code::invalid_request) << "no jsonrpc";
    EXPECT_EQ(code_of(R"({"id":1,"result":{}})"), code::invalid_request) << "no jsonrpc";
    EXPECT_EQ(code_of(R"({"jsonrpc":"2.0","id":{},"method":"x"})"), code::invalid_request);
    EXPECT_EQ(code_of(R"({"jsonrpc":"2.0","id":1,"method":""})"), code::invalid_request);
    EXPECT_EQ(code_of(R"({"jsonrpc":"2.0","id":1,"method":7})"), code::invalid_request);
    EXPECT_EQ(code_of(R"({"jsonrpc":"2.0","id":1,"method":"x","params":3})"), code::invalid_params);
    EXPECT_EQ(code_of(R"({"jsonrpc":"2.0","id":1})"), code::invalid_request)
        << "a response needs a result or an error";
    EXPECT_EQ(code_of(R"({"jsonrpc":"2.0"})"), code::invalid_request);
    EXPECT_EQ(code_of(std::string(100000, '[')), code::parse_error) << "nesting is bounded";
    EXPECT_EQ(code_of(R"({"jsonrpc":"2.0","id":1,"method":"x","params":{}})"), 0);

    auto bad = std::get<Invalid>(parse(R"({"jsonrpc":"1.0","id":5,"method":"x"})"));
    EXPECT_EQ(bad.id, 5) << "a valid id is answered to";
    EXPECT_EQ(bad.why, "jsonrpc must be \"2.0\"");
    EXPECT_EQ(bad.error().message, "Invalid request: jsonrpc must be \"2.0\"");
    auto broken = std::get<Invalid>(parse("{oops"));
    EXPECT_TRUE(broken.id.is_null());
    EXPECT_EQ(broken.error().message.rfind("Parse error: invalid JSON", 0), 0u)
        << broken.error().message;
}

TEST(JsonRpc, TheFourKindsAreWritten) {
    EXPECT_EQ(dump(request(1, "initialize", nullptr)),
              R"({"id":1,"jsonrpc":"2.0","method":"initialize"})");
    EXPECT_EQ(dump(notification("$/cancelRequest", {{"id", 2}})),
              R"({"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":2}})");
    EXPECT_EQ(dump(result(nullptr, Json::object())), R"({"id":null,"jsonrpc":"2.0","result":{}})");
    EXPECT_EQ(dump(error("a", {code::method_not_found, "no", nullptr})),
              R"({"error":{"code":-32601,"message":"no"},"id":"a","jsonrpc":"2.0"})");
    EXPECT_EQ(
        dump(error(1, {-32002, "gone", {{"id", "s"}}})),
        R"({"error":{"code":-32002,"data":{"id":"s"},"message":"gone"},"id":1,"jsonrpc":"2.0"})");
    EXPECT_EQ(dump(result(1, "\xff")), "{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":\"\xEF\xBF\xBD\"}")
        << "bytes that are not UTF-8 are replaced, not thrown at";
}

} // namespace json_rpc_test
} // namespace rio::jsonrpc
