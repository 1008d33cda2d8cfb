// Issue 39, N and O: text from outside reached rio-cli's terminal raw through a field nobody
// passed through terminal_safe (the compaction note, a model's name). This feeds control
// characters into every string field of every event rio-cli knows — a sample of each
// client::CoreEvent alternative, each string leaf replaced in turn — through the headless
// run and the interactive session as they print it, and checks what reached the terminal:
// no escape but rio's own SGR, no BEL, no bare CR, no C1 control, and the hostile text never
// at the start of a line of its own (a fake "plan approved"). A field added later is in the
// samples by itself (RIO_FIELDS structs are filled generically), and printed raw it fails.
#include "cli/headless.hpp"
#include "cli/interactive.hpp"
#include "cli/terminal_safe.hpp"
#include "client/events.hpp"
#include "text/utf8.hpp"

#include <asio/io_context.hpp>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <gtest/gtest.h>
#include <iostream>
#include <sstream>
#include <unistd.h>

namespace rio {

// Reaches into the two painters (they are friends of it): an event as the link would hand it
// over, and the session's state-driven lines (/status, a finished turn's summary).
struct TerminalOutputProbe {
    static void headless_event(HeadlessRun& run, const client::CoreEvent& event) {
        run.live_ = true;
        run.on_event(event);
    }
    static void interactive_event(InteractiveSession& session, const client::CoreEvent& event) {
        session.on_event(event);
        session.print(session.status_text());
        session.print(session.turn_summary());
    }
};

// A namespace of its own: the unit tests build as one (unity) source, and other tests have
// helpers of these names.
namespace terminal_output_test {
namespace {

// An OSC that retitles the window, a screen clear, a carriage return and a line break before
// a fake line, an SGR of rio's own palette, a C1 CSI, a bidirectional override.
const std::vector<std::string> hostile = {
    "\x1b]0;PWNED\x07\x1b[2J\rplan approved\n\x1b[31mRED",
    "\nplan approved\r\n\x1b[31mRED\xc2\x9b"
    "2J\u202e\x08\x7f",
};

// What a field holds in a sample before one is made hostile.
const std::string sample_word = "word";

template <typename T> void fill(T& value);

template <typename T> void fill(T& value) {
    if constexpr (std::is_same_v<T, std::string>) {
        value = sample_word;
    } else if constexpr (std::is_same_v<T, bool>) {
        value = true;
    } else if constexpr (std::is_arithmetic_v<T>) {
        value = 1;
    } else if constexpr (is_optional<T>::value) {
        typename T::value_type inner{};
        fill(inner);
        value = std::move(inner);
    } else if constexpr (is_vector<T>::value) {
        typename T::value_type inner{};
        fill(inner);
        value = {std::move(inner)};
    } else if constexpr (requires { T::named(std::string()); }) { // a closed set's field
        value = T::named(sample_word);
    } else if constexpr (has_fields<T>::value) {
        visit_fields([](const char*, auto& field) { fill(field); }, value);
    }
}

struct Sample {
    std::string_view event;
    Json params;
};

// Every alternative: filled field by field where it has RIO_FIELDS, else as it serializes
// by default (the hand-written samples below fill those).
template <std::size_t... I> std::vector<Sample> generic_samples(std::index_sequence<I...>) {
    std::vector<Sample> out;
    (
        [&out] {
            using E = std::variant_alternative_t<I, client::CoreEvent>;
            E event{};
            fill(event);
            out.push_back({E::event, Json(event)});
        }(),
        ...);
    return out;
}

// The events whose JSON is written by hand (optional fields, a Json of fields or input), in
// the shapes rio-cli prints differently.
std::vector<Sample> written_samples() {
    const Json sandbox = {{"profile", "workspace-write"}, {"network", false}};
    const Json exit = {{"code", 1}, {"timed_out", false}, {"stopped", false}, {"seconds", 0.5}};
    auto tool = [](Json input) {
        return Json{{"turn", 1},         {"id", "word"},
                    {"name", "word"},    {"input", input},
                    {"kind", "command"}, {"sandbox", {{"profile", "word"}, {"network", true}}}};
    };
    // A subagent's step in each state that prints something.
    auto subagent = [](const char* state, Json input, const char* text, bool ok = true) {
        return Json{{"turn", 1},      {"id", "word"},   {"agent", "word"}, {"task", "word"},
                    {"state", state}, {"call", "word"}, {"tool", "word"},  {"input", input},
                    {"ok", ok},       {"text", text}};
    };
    // A proposal's own fields sit beside its turn, id and kind.
    auto proposal = [](const char* kind, Json fields) {
        fields.update(Json{{"turn", 1}, {"id", "word"}, {"kind", kind}});
        return fields;
    };
    const Json plan = {{"title", "word"},   {"plan", "word"},      {"path", "word"},
                       {"revises", "word"}, {"not_filed", "word"}, {"steps", {"word"}}};
    const Json pending = proposal("plan", plan);
    return {
        {event::agent_delta, {{"turn", 1}, {"text", "word"}}},
        {event::agent_thinking, {{"turn", 1}, {"text", "word"}}},
        {event::agent_usage, {{"turn", 1}, {"counts", {{"input_tokens", 5}, {"word", "word"}}}}},
        {event::agent_tool, tool({{"argv", {"word", "word"}}, {"cwd", "word"}})},
        {event::agent_tool, tool({{"pattern", "word"}, {"path", "word"}})},
        {event::agent_tool, tool({{"title", "word"}})},
        {event::agent_tool, tool({{"path", "word"}})},
        {event::agent_tool, tool({{"description", "word"}, {"prompt", "word"}, {"agent", "word"}})},
        {event::agent_subagent, subagent("started", Json::object(), "word")},
        {event::agent_subagent, subagent("tool", {{"path", "word"}}, "")},
        {event::agent_subagent, subagent("result", Json::object(), "word", false)},
        {event::agent_subagent, subagent("done", Json::object(), "word")},
        {event::agent_tool_result,
         {{"turn", 1},
          {"id", "word"},
          {"name", "word"},
          {"ok", false},
          {"content", "word"},
          {"exit", exit},
          {"output", "word\nword"},
          {"sandbox", sandbox}}},
        {event::agent_tool_result,
         {{"turn", 1}, {"id", "word"}, {"name", "word"}, {"ok", false}, {"content", "word"}}},
        {event::agent_propose, pending},
        {event::agent_propose, proposal("edit", {{"path", "word"}, {"diff", "@@ word\n+word"}})},
        {event::agent_propose,
         proposal("command", {{"argv", {"word", "word"}}, {"cwd", "word"}, {"sandbox", sandbox}})},
        {event::agent_propose, proposal("command", {{"argv", {"word"}}, {"sandbox", "word"}})},
        {event::agent_propose,
         proposal("mcp", {{"server", "word"}, {"tool", "word"}, {"arguments", {{"a", "word"}}}})},
        {event::agent_status,
         {{"mode", "plan"},
          {"auto_accept", false},
          {"provider", "word"},
          {"model", "word"},
          {"busy", true},
          {"turn", 1},
          {"state", "awaiting_decision"},
          {"pending", pending},
          {"session", "word"},
          {"session_problem", "word"},
          {"context", {{"used", 5}, {"window", 10}, {"estimated", true}}},
          {"sandbox", {{"available", false}, {"abi", 0}, {"reason", "word"}}},
          {"plan", {{"done", 1}, {"total", 2}, {"path", "word"}}},
          {"plan_model", {{"provider", "word"}, {"model", "word"}}}}},
        {event::agent_compacted,
         {{"turn", 1},
          {"before", 5},
          {"after", 1},
          {"cleared", 1},
          {"summarized", false},
          {"reason", "word"},
          {"note", "word"}}},
        {event::plans_progress,
         {{"turn", 1},
          {"path", "word"},
          {"steps",
           {{{"n", 1}, {"text", "word"}, {"status", "done"}, {"note", "word"}},
            {{"n", 2}, {"text", "word"}, {"status", "in_progress"}}}},
          {"unplanned", {"word"}}}},
    };
}

// The string leaves of `j` (in arrays and objects, keys left alone), as JSON pointers.
void string_leaves(const Json& j, const std::string& at, std::vector<std::string>& out) {
    if (j.is_string()) out.push_back(at);
    if (j.is_object())
        for (const auto& [key, value] : j.items())
            string_leaves(value, at + "/" + key, out);
    if (j.is_array())
        for (std::size_t i = 0; i < j.size(); ++i)
            string_leaves(j[i], at + "/" + std::to_string(i), out);
}

// Fields whose lines are the point: the reply, thinking, a plan's Markdown, a diff. Their
// controls are checked; a line of theirs may start with anything.
bool multi_line_field(std::string_view event, const std::string& leaf) {
    return ((event == event::agent_delta || event == event::agent_thinking) && leaf == "/text") ||
           (event == event::agent_propose && (leaf == "/plan" || leaf == "/diff")) ||
           (event == event::plans_report && leaf == "/receipt_text"); // Markdown, as a plan
}

// rio's own SGR: what sgr:: and styled_line write (and plan_review_text's underline end).
std::size_t own_sgr_length(std::string_view text) {
    if (!text.starts_with("\x1b[")) return 0;
    std::size_t end = text.find_first_not_of("0123456789;", 2);
    if (end == std::string_view::npos || text[end] != 'm' || end == 2) return 0;
    std::string_view codes = text.substr(2, end - 2);
    for (std::size_t at = 0; at <= codes.size();) {
        std::size_t semi = std::min(codes.find(';', at), codes.size());
        std::string_view code = codes.substr(at, semi - at);
        static const std::vector<std::string_view> palette = {"0",  "1",  "2",  "3",  "4", "9",
                                                              "24", "31", "32", "33", "36"};
        if (std::find(palette.begin(), palette.end(), code) == palette.end()) return 0;
        at = semi + 1;
    }
    return end + 1;
}

// What is wrong with `out` as terminal bytes, "" when nothing is.
std::string problem_in(const std::string& out, bool lines_may_start_with_it) {
    if (find_invalid_utf8(out)) return "invalid UTF-8";
    std::string text; // without rio's SGR
    for (std::size_t at = 0; at < out.size();) {
        if (std::size_t n = own_sgr_length(std::string_view(out).substr(at))) {
            at += n;
            continue;
        }
        DecodedChar d = decode_utf8(out, at);
        if (d.cp == 0x1B) return "an escape that is not rio's SGR";
        if (d.cp == '\r') return "a carriage return";
        if (d.cp < 0x20 && d.cp != '\n' && d.cp != '\t') return "a C0 control";
        if (d.cp == 0x7F || (d.cp >= 0x80 && d.cp < 0xA0)) return "a DEL or C1 control";
        if ((d.cp >= 0x202A && d.cp <= 0x202E) || (d.cp >= 0x2066 && d.cp <= 0x2069))
            return "a bidirectional override";
        text.append(out, at, d.length);
        at += d.length;
    }
    if (out.find("\x1b[31mRED") != std::string::npos) return "the hostile SGR, raw";
    if (lines_may_start_with_it) return {};
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
        if (line.find_first_not_of(' ') != std::string::npos &&
            line.substr(line.find_first_not_of(' ')).starts_with("plan approved"))
            return "a line of its own: " + line;
    return {};
}

// std::cout and std::cerr into one string while it lives; stdin from /dev/null, so that a
// question's raw keys touch no terminal.
class Captured {
public:
    Captured() : out_(std::cout.rdbuf(buffer_.rdbuf())), err_(std::cerr.rdbuf(buffer_.rdbuf())) {}
    ~Captured() {
        std::cout.rdbuf(out_);
        std::cerr.rdbuf(err_);
    }
    std::string text() const { return buffer_.str(); }

private:
    std::ostringstream buffer_;
    std::streambuf* out_;
    std::streambuf* err_;
};

class TerminalOutput : public ::testing::Test {
protected:
    void SetUp() override {
        saved_stdin_ = ::dup(0);
        int null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
        ::dup2(null, 0);
        ::close(null);
        // The session's line history, away from the user's.
        state_ = std::filesystem::temp_directory_path() /
                 ("rio-terminal-output-" + std::to_string(::getpid()));
        const char* old = std::getenv("XDG_STATE_HOME");
        old_state_ = old ? std::optional<std::string>(old) : std::nullopt;
        ::setenv("XDG_STATE_HOME", state_.c_str(), 1);
    }
    void TearDown() override {
        ::dup2(saved_stdin_, 0);
        ::close(saved_stdin_);
        if (old_state_)
            ::setenv("XDG_STATE_HOME", old_state_->c_str(), 1);
        else
            ::unsetenv("XDG_STATE_HOME");
        std::filesystem::remove_all(state_);
    }

    // What `paint` prints with a painter made by `make` on a link of its own to a program that
    // reads what is sent and never answers (the loop does not run). The link goes first:
    // the requests it fails then reach a painter that is still there.
    template <typename Painter, typename Make, typename Paint>
    std::string painted(Make make, Paint paint) {
        Captured captured;
        auto link = client::CoreLink::spawn(io_, "/bin/cat", {});
        if (!link) {
            ADD_FAILURE() << link.error().message;
            return {};
        }
        std::unique_ptr<Painter> painter = make(**link);
        paint(*painter);
        link->reset();
        painter.reset();
        return captured.text();
    }

    // All that rio-cli prints for `event`: -p in three ways of deciding, and the session.
    std::vector<std::pair<std::string, std::string>> printed(const client::CoreEvent& event) {
        std::vector<std::pair<std::string, std::string>> out;
        const Terminal terminal{false, true, 80};
        auto headless = [&](const char* name, const HeadlessOptions& options) {
            out.emplace_back(
                name,
                painted<HeadlessRun>(
                    [&](client::CoreLink& link) {
                        auto run =
                            std::make_unique<HeadlessRun>(io_, link, options, terminal, terminal);
                        run->start([](int) {});
                        return run;
                    },
                    [&](HeadlessRun& run) { TerminalOutputProbe::headless_event(run, event); }));
        };
        headless("-p", {});
        HeadlessOptions approving;
        approving.approve_plans = "auto";
        approving.approve_edits = approving.allow_commands = true;
        headless("-p --approve-plans auto", approving);
        HeadlessOptions never;
        never.approve_plans = "never";
        headless("-p --approve-plans never", never);
        out.emplace_back("interactive",
                         painted<InteractiveSession>(
                             [&](client::CoreLink& link) {
                                 return std::make_unique<InteractiveSession>(io_, link, terminal);
                             },
                             [&](InteractiveSession& session) {
                                 TerminalOutputProbe::interactive_event(session, event);
                             }));
        return out;
    }

    asio::io_context io_;

private:
    int saved_stdin_ = -1;
    std::filesystem::path state_;
    std::optional<std::string> old_state_;
};

TEST_F(TerminalOutput, EveryEventFieldReachesTheTerminalSafe) {
    std::vector<Sample> samples =
        generic_samples(std::make_index_sequence<std::variant_size_v<client::CoreEvent>>{});
    for (Sample& s : written_samples())
        samples.push_back(std::move(s));
    std::size_t checked = 0, failures = 0;
    for (const Sample& sample : samples) {
        ASSERT_TRUE(client::decode_event(sample.event, sample.params))
            << "the sample of " << sample.event << " fits: " << sample.params.dump();
        std::vector<std::string> leaves;
        string_leaves(sample.params, "", leaves);
        for (const std::string& leaf : leaves)
            for (const std::string& text : hostile) {
                Json params = sample.params;
                params[Json::json_pointer(leaf)] = text;
                // An enum field that refuses the text: nothing of it is printed.
                std::optional<client::CoreEvent> event = client::decode_event(sample.event, params);
                if (!event) continue;
                ++checked;
                std::vector<std::pair<std::string, std::string>> outputs;
                try {
                    outputs = printed(*event);
                } catch (const std::exception& e) {
                    ADD_FAILURE() << "printing " << sample.event << " with " << leaf << " = "
                                  << Json(text).dump() << " threw: " << e.what();
                    continue;
                }
                for (const auto& [painter, out] : outputs) {
                    std::string problem = problem_in(out, multi_line_field(sample.event, leaf));
                    if (problem.empty()) continue;
                    // Each failure named; what was printed, for the first few.
                    ADD_FAILURE() << painter << " printed " << problem << " for " << sample.event
                                  << " " << leaf << " = " << Json(text).dump()
                                  << (++failures <= 20 ? ":\n" + Json(out).dump() : "");
                }
            }
    }
    EXPECT_EQ(failures, 0u);
    EXPECT_GT(checked, 200u) << "every event's fields were tried";
}

// The test's own eyes: a raw field is caught.
TEST(TerminalOutputCheck, SeesARawField) {
    EXPECT_NE(problem_in("note: " + hostile[0] + "\n", false), "");
    EXPECT_NE(problem_in("note:\nplan approved\n", false), "") << "the fake line";
    EXPECT_EQ(problem_in("note:\nplan approved\n", true), "") << "a reply's own lines";
    EXPECT_EQ(problem_in("\x1b[2mnote: " + ::rio::shown(hostile[1]) + "\x1b[0m\n", false), "");
    EXPECT_EQ(problem_in("\x1b[0;1;36mx\x1b[24m", false), "");
}

} // namespace
} // namespace terminal_output_test
} // namespace rio
