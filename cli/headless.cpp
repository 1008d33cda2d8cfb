#include "cli/headless.hpp"

#include "cli/trace.hpp"

#include <cstdio>
#include <iostream>

namespace rio {
namespace {

std::string what(const Json& p) {
    std::string kind = p.value("kind", "");
    if (kind == "edit") return "the edit of " + p.value("path", "");
    if (kind == "command") {
        std::string argv;
        for (const Json& w : p.value("argv", Json::array()))
            argv += (argv.empty() ? "" : " ") + w.get<std::string>();
        return "the command `" + argv + "`";
    }
    return "the plan \"" + p.value("title", "") + "\"";
}

} // namespace

HeadlessRun::HeadlessRun(CoreLink& link, HeadlessOptions options, Terminal out, Terminal err)
    : link_(link), options_(std::move(options)), out_(out), err_(err) {}

void HeadlessRun::start(std::function<void(int)> finish) {
    finish_ = std::move(finish);
    link_.on_event([this](const std::string& name, const Json& params) { on_event(name, params); });
    link_.on_closed([this] {
        if (!ended_) {
            say("rio-cli: the core closed the connection");
            end(exit_other);
        }
    });
    auto fail = [this](const Json& response) {
        say("rio-cli: " + response["error"].value("message", "request failed"));
        end(exit_other);
    };
    link_.request("session.hello", {{"client", "rio-cli"}}, [this, fail](const Json& r) {
        if (!r.value("ok", false)) return fail(r);
        if (options_.trust_project)
            link_.request("project.trust.set", {{"trust", true}}, [fail](const Json& t) {
                if (!t.value("ok", false) && t["error"].value("code", "") != "no_project") fail(t);
            });
        else
            link_.request("project.trust.get", {}, [this](const Json& t) {
                const Json& trust = t.value("result", Json::object());
                if (!trust.value("trusted", true))
                    say("rio-cli: this project's own allow-list or MCP servers are not trusted, "
                        "so they do not apply (--trust-project trusts them)");
            });
        if (options_.mode)
            link_.request("agent.mode.set", {{"mode", *options_.mode}}, [fail](const Json& m) {
                if (!m.value("ok", false)) fail(m);
            });
        link_.request("agent.send", {{"text", options_.task}}, [this, fail](const Json& s) {
            if (!s.value("ok", false)) return fail(s);
            turn_ = s["result"].value("turn", -1L);
        });
    });
}

void HeadlessRun::on_event(const std::string& name, const Json& params) {
    if (ended_) return;
    // agent.send's response precedes the turn's events, so turn_ is known by now.
    if (params.contains("turn") && params["turn"].is_number_integer() && params["turn"] != turn_)
        return;
    if (options_.output == "stream-json" && name.rfind("agent.", 0) == 0 && name != "agent.status")
        std::cout << Json{{"event", name}, {"params", params}}.dump(-1, ' ', false,
                                                                    Json::error_handler_t::replace)
                  << "\n"
                  << std::flush;
    bool text = options_.output == "text";
    if (name == "agent.delta" && text) {
        std::cout << params.value("text", "") << std::flush;
        line_open_ = true;
    } else if (name == "agent.message") {
        if (text && line_open_) std::cout << "\n" << std::flush;
        line_open_ = false;
        if (!params.value("text", "").empty()) messages_.push_back(params["text"]);
    } else if (name == "agent.tool") {
        say(tool_line(params, err_.color));
    } else if (name == "agent.tool_result") {
        if (std::string failure = tool_failure_line(params, err_.color); !failure.empty())
            say(failure);
    } else if (name == "agent.propose") {
        decide(params);
    } else if (name == "agent.error") {
        error_ = {{"code", params.value("code", "")}, {"message", params.value("message", "")}};
        say(styled("error: " + params.value("code", "") + ": " + params.value("message", ""),
                   sgr::red, err_.color));
    } else if (name == "agent.done") {
        end(!error_.is_null() ? exit_provider_error : rejected_ ? exit_rejected : exit_done);
    } else if (name == "agent.stopped" && !plan_.is_null()) {
        end(exit_plan_waiting);
    }
}

void HeadlessRun::decide(const Json& p) {
    std::string kind = p.value("kind", "");
    Json approve{{"turn", turn_}, {"id", p.value("id", "")}, {"decision", "approve"}};
    if (kind == "plan") {
        if (!options_.approve_plans) {
            // DESIGN §9: the plan is filed; show it and leave it for a person to approve.
            plan_ = p;
            if (options_.output == "text") {
                if (line_open_) std::cout << "\n";
                std::cout << plan_text(p, out_.width, out_.color) << "\n";
                if (!p.value("path", "").empty())
                    std::cout << "Plan filed: " << p["path"].get<std::string>() << "\n";
                std::cout << std::flush;
            }
            if (options_.shared_core) return end(exit_plan_waiting);
            link_.request("agent.stop", {{"turn", turn_}});
            return;
        }
        if (*options_.approve_plans == "never") return reject(p, "--approve-plans never");
        approve["policy"] = *options_.approve_plans;
        say("approved " + what(p) + " (" + *options_.approve_plans + ")");
        link_.request("agent.approve", approve);
        return;
    }
    bool allowed = kind == "edit" ? options_.approve_edits : options_.allow_commands;
    if (!allowed) return reject(p, kind == "edit" ? "no --approve-edits" : "no --allow-commands");
    link_.request("agent.approve", approve);
}

void HeadlessRun::reject(const Json& p, const std::string& why_for_user) {
    rejected_ = true;
    refusals_.push_back({{"kind", p.value("kind", "")}, {"what", what(p)}, {"why", why_for_user}});
    say(styled("rejected " + what(p) + ": nobody can approve it in this run (" + why_for_user + ")",
               sgr::yellow, err_.color));
    std::string feedback =
        "Nobody can approve this in this non-interactive run (rio-cli -p, " + why_for_user +
        "), so it was not done. Continue without it if you can, and say in your final answer "
        "what still needs a person.";
    link_.request("agent.approve", {{"turn", turn_},
                                    {"id", p.value("id", "")},
                                    {"decision", "reject"},
                                    {"feedback", feedback}});
}

void HeadlessRun::end(int code) {
    if (ended_) return;
    ended_ = true;
    if (line_open_ && options_.output == "text") std::cout << "\n";
    if (options_.output == "json")
        std::cout << Json{{"exit_code", code},
                          {"turn", turn_},
                          {"result", messages_.empty() ? Json("") : messages_.back()},
                          {"messages", messages_},
                          {"plan", plan_},
                          {"rejected", refusals_},
                          {"error", error_}}
                         .dump(-1, ' ', false, Json::error_handler_t::replace)
                  << "\n";
    std::cout << std::flush;
    finish_(code);
}

void HeadlessRun::say(const std::string& line) {
    if (options_.output != "text") return;
    if (line_open_) {
        std::cout << "\n" << std::flush;
        line_open_ = false;
    }
    std::cerr << line << "\n" << std::flush;
}

} // namespace rio
