#include "ops/subagents.hpp"

#include "host/files/json_file.hpp"
#include "host/store/prompt_files.hpp"
#include "host/store/redact.hpp"
#include "text/utf8.hpp"

#include <asio/post.hpp>

namespace rio {
namespace {

// What agent.subagent carries of a tool's answer: enough for a line under the call.
constexpr std::size_t shown_result_bytes = 2048;

std::string cut(std::string text, std::size_t at) {
    if (text.size() <= at) return text;
    while (at > 0 && !is_char_boundary(text, at))
        --at;
    text.resize(at);
    return text + " …";
}

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names)
        out += (out.empty() ? "" : ", ") + n;
    return out;
}

} // namespace

SubagentSetting configured_subagents(const UserDirs& dirs) {
    const std::filesystem::path file = dirs.settings_file();
    auto config = load_json_file(file);
    if (!config) return {3, std::nullopt, config.error().message + "; 3 subagents run at once"};
    auto it = config->find("subagents");
    if (it == config->end() || !it->is_object()) return {};
    SubagentSetting setting;
    if (auto at_once = it->find("at_once"); at_once != it->end()) {
        if (at_once->is_number_integer() && *at_once >= 1 && *at_once <= 16)
            setting.at_once = at_once->get<std::size_t>();
        else
            setting.warning = file.string() +
                              ": subagents.at_once must be a whole number from 1 to 16, not " +
                              at_once->dump() + "; 3 subagents run at once";
    }
    auto provider = it->find("provider");
    auto model = it->find("model");
    if (provider != it->end() || model != it->end()) {
        if (provider != it->end() && provider->is_string() && model != it->end() &&
            model->is_string() && !provider->get<std::string>().empty() &&
            !model->get<std::string>().empty())
            setting.model = PlanModel{provider->get<std::string>(), model->get<std::string>()};
        else
            setting.warning += (setting.warning.empty() ? "" : "; ") + file.string() +
                               ": subagents.provider and subagents.model name who answers "
                               "subagents, both as strings; whoever answers the agent does";
    }
    return setting;
}

struct Subagents::Child {
    Child(TurnId turn, ToolCall call, const ToolContext& parent, std::vector<ToolSpec> tools)
        : turn(turn), call(std::move(call)), context(parent), loop(std::move(tools)) {}

    TurnId turn;
    ToolCall call;
    std::string agent, task, prompt;
    std::string guidance; // the definition's body, said where plan mode's note would be
    std::string notes;    // what of the definition was not taken
    ToolContext context;  // the parent's, unable to start subagents, its events kept in
    AgentLoop loop;
    enum class Phase { waiting, running, finished } phase = Phase::waiting;
    bool ok = false;
    std::string answer;       // finished: the final text, or why there is none
    std::string last_message; // the text of the latest step
    std::string error;        // agent.error's message, if one came
    bool planning = false;    // whoever answers the parent's plan mode answers it too
    CancelFn cancel_provider;
    ToolCancel cancel_tool;
    std::optional<RunTool> run; // the parent's task stage waiting for the answer
    ToolReportFn reply;
};

Subagents::Subagents(SubagentHost host)
    : host_(std::move(host)), setting_(configured_subagents(host_.tools.dirs)) {}

Subagents::~Subagents() {
    for (const auto& child : children_) {
        if (child->cancel_provider) std::exchange(child->cancel_provider, nullptr)();
        if (child->cancel_tool) std::exchange(child->cancel_tool, nullptr)();
    }
}

std::shared_ptr<Subagents::Child> Subagents::make_child(TurnId turn, const ToolCall& call) {
    auto child = std::make_shared<Child>(turn, call, host_.tools, host_.all_tools());
    child->context.subagent = nullptr;             // depth 1
    child->context.emit = [](const CoreEvent&) {}; // its tools' own events are not the parent's
    child->task = call.input.value("description", "");
    child->prompt = call.input.value("prompt", "");
    child->agent = call.input.contains("agent") && call.input["agent"].is_string()
                       ? call.input["agent"].get<std::string>()
                       : "";
    const AgentLoop& parent = host_.parent();
    child->planning = parent.mode() == Mode::plan;
    Effects quiet; // nobody hears a subagent's own status
    child->loop.set_mode(Mode::plan, quiet);
    child->loop.set_sandbox(parent.status().sandbox, quiet);
    child->loop.investigate_only({});
    ContextBudget budget = host_.providers.budget();
    child->loop.set_budget(budget, quiet);
    if (!setting_.warning.empty()) child->notes = setting_.warning + ". ";
    if (child->agent.empty()) return child;

    DefinitionFiles defs =
        read_definition_files(host_.tools.dirs, host_.tools.workspace.root, "agents");
    auto def = std::find_if(defs.files.begin(), defs.files.end(),
                            [&](const DefinitionFile& f) { return f.name == child->agent; });
    if (def == defs.files.end()) {
        std::vector<std::string> names;
        for (const DefinitionFile& f : defs.files)
            names.push_back(f.name);
        child->phase = Child::Phase::finished;
        child->answer = "There is no subagent definition named '" + child->agent + "'" +
                        (names.empty() ? "; none are defined (.rio/agents/NAME.md)."
                                       : "; there are: " + joined(names) + ".") +
                        " No subagent was started.";
        return child;
    }
    child->guidance = def->body;
    std::vector<std::string> ignored;
    for (const char* field : {"model", "provider", "base_url", "baseurl", "permissionmode"})
        if (def->fields.count(field)) ignored.push_back(field);
    if (!ignored.empty())
        child->notes += "Its " + joined(ignored) +
                        " not used: a definition is a prompt and chooses no provider, model or "
                        "rights. ";
    if (auto tools = def->fields.find("tools"); tools != def->fields.end()) {
        std::vector<std::string> may;
        for (const ToolSpec& spec : child->loop.offered())
            may.push_back(spec.name);
        std::vector<std::string> only, dropped;
        for (const std::string& name : definition_list(tools->second)) {
            if (std::find(may.begin(), may.end(), name) != may.end())
                only.push_back(name);
            else
                dropped.push_back(name);
        }
        if (!dropped.empty())
            child->notes += "Tools a subagent may not have were dropped: " + joined(dropped) + ". ";
        if (only.empty()) {
            child->phase = Child::Phase::finished;
            child->answer = "The subagent definition '" + child->agent +
                            "' names no tool a subagent may use (" + joined(may) +
                            "); no subagent was started. " + child->notes;
            return child;
        }
        child->loop.investigate_only(std::move(only));
    }
    return child;
}

void Subagents::start(TurnId turn, const std::vector<ToolCall>& calls) {
    setting_ = configured_subagents(host_.tools.dirs);
    // What an earlier turn began and nobody took: stopped, quietly (its turn moved on).
    std::erase_if(children_, [&](const std::shared_ptr<Child>& c) {
        if (c->turn == turn) return false;
        if (c->cancel_provider) std::exchange(c->cancel_provider, nullptr)();
        if (c->cancel_tool) std::exchange(c->cancel_tool, nullptr)();
        return true;
    });
    for (const ToolCall& call : calls)
        children_.push_back(make_child(turn, call));
    begin_waiting();
}

void Subagents::begin_waiting() {
    std::size_t running = 0;
    for (const auto& c : children_)
        running += c->phase == Child::Phase::running;
    for (const auto& c : children_) {
        if (running >= setting_.at_once) return;
        if (c->phase != Child::Phase::waiting) continue;
        ++running;
        begin(c);
    }
}

void Subagents::begin(const std::shared_ptr<Child>& child) {
    child->phase = Child::Phase::running;
    emit_event(host_.emit,
               SubagentEvent{child->turn, child->call.id, child->agent, child->task,
                             SubagentState::started, "", "", Json::object(), true, child->notes});
    Effects out;
    child->loop.send(child->prompt, out);
    perform(child, out);
}

ToolCancel Subagents::answer(const RunTool& run, const ToolReportFn& report) {
    auto it = std::find_if(children_.begin(), children_.end(), [&](const auto& c) {
        return c->turn == run.turn && c->call.id == run.call.id;
    });
    if (it == children_.end()) { // no StartSubagents began it: it starts now
        start(run.turn, {run.call});
        it = std::find_if(children_.begin(), children_.end(), [&](const auto& c) {
            return c->turn == run.turn && c->call.id == run.call.id;
        });
    }
    std::shared_ptr<Child> child = *it;
    if (child->phase == Child::Phase::finished) {
        ToolReport done = child->ok ? tool_ok(run, child->answer) : tool_error(run, child->answer);
        children_.erase(it);
        report(std::move(done));
        return nullptr;
    }
    child->run = run;
    child->reply = report;
    return [this, weak = std::weak_ptr<Child>(child)] {
        auto c = weak.lock();
        if (!c || c->phase == Child::Phase::finished) return;
        c->reply = nullptr; // the parent no longer waits
        Effects out;
        c->loop.stop({}, out);
        perform(c, out);
        if (c->phase != Child::Phase::finished)
            finish(*c, SubagentState::stopped, "stopped before it answered");
    };
}

void Subagents::stop_all() {
    std::vector<std::shared_ptr<Child>> children = std::move(children_);
    children_.clear();
    for (const auto& c : children) {
        c->reply = nullptr;
        if (c->phase == Child::Phase::running) {
            Effects out;
            c->loop.stop({}, out);
            perform(c, out);
        }
        if (c->cancel_provider) std::exchange(c->cancel_provider, nullptr)();
        if (c->cancel_tool) std::exchange(c->cancel_tool, nullptr)();
        if (c->phase != Child::Phase::finished)
            finish(*c, SubagentState::stopped, "stopped before it answered");
    }
}

void Subagents::perform(const std::shared_ptr<Child>& child, Effects& effects) {
    for (Effect& effect : effects) {
        if (auto* e = std::get_if<EmitEvent>(&effect)) {
            on_event(*child, e->event);
        } else if (auto* call = std::get_if<CallProvider>(&effect)) {
            call_provider(child, std::move(*call));
        } else if (std::get_if<CancelProvider>(&effect)) {
            if (child->cancel_provider) std::exchange(child->cancel_provider, nullptr)();
        } else if (auto* run = std::get_if<RunTool>(&effect)) {
            run_tool(child, *run);
        } else if (std::get_if<CancelTools>(&effect)) {
            if (child->cancel_tool) std::exchange(child->cancel_tool, nullptr)();
        }
        // Nothing else comes from a loop that cannot edit, plan or start subagents.
    }
}

void Subagents::on_event(Child& child, const CoreEvent& event) {
    const auto& secrets = host_.providers.secrets();
    auto said = [&](SubagentState state, std::string call, std::string tool, Json input, bool ok,
                    std::string text) {
        redact(text, secrets);
        emit_event(host_.emit, SubagentEvent{child.turn, child.call.id, child.agent, child.task,
                                             state, std::move(call), std::move(tool),
                                             std::move(input), ok, std::move(text)});
    };
    if (const auto* tool = std::get_if<ToolEvent>(&event)) {
        said(SubagentState::tool, tool->id, tool->name, tool->input, true, "");
    } else if (const auto* result = std::get_if<ToolResultEvent>(&event)) {
        said(SubagentState::result, result->id, result->name, Json::object(), result->ok,
             cut(result->content, shown_result_bytes));
    } else if (const auto* usage = std::get_if<UsageEvent>(&event)) {
        emit_event(host_.emit, UsageEvent{child.turn, usage->counts}); // the parent's turn's
    } else if (const auto* message = std::get_if<MessageEvent>(&event)) {
        child.last_message = message->text;
    } else if (const auto* error = std::get_if<ErrorEvent>(&event)) {
        child.error = error->message;
    } else if (std::holds_alternative<DoneEvent>(event)) {
        if (!child.error.empty())
            finish(child, SubagentState::failed, "the subagent failed: " + child.error);
        else
            finish(child, SubagentState::done,
                   child.last_message.empty() ? "The subagent ended without an answer."
                                              : child.last_message);
    } else if (std::holds_alternative<StoppedEvent>(event)) {
        finish(child, SubagentState::stopped, "stopped before it answered");
    }
}

void Subagents::finish(Child& child, SubagentState state, std::string text) {
    if (child.phase == Child::Phase::finished) return;
    redact(text, host_.providers.secrets());
    child.phase = Child::Phase::finished;
    child.ok = state == SubagentState::done;
    child.answer = child.notes.empty() || !child.ok ? text : text + "\n\n(" + child.notes + ")";
    emit_event(host_.emit, SubagentEvent{child.turn, child.call.id, child.agent, child.task, state,
                                         "", "", Json::object(), child.ok, text});
    if (child.reply && child.run) {
        // Answered from its own handler: the parent's loop is not re-entered from the child's,
        // nor the list of children changed under whoever called this.
        ToolReport report =
            child.ok ? tool_ok(*child.run, child.answer) : tool_error(*child.run, child.answer);
        asio::post(host_.io, [this, reply = std::exchange(child.reply, nullptr),
                              report = std::move(report), turn = child.turn,
                              id = child.call.id]() mutable {
            std::erase_if(children_,
                          [&](const auto& c) { return c->turn == turn && c->call.id == id; });
            reply(std::move(report));
        });
    }
    asio::post(host_.io, [this] { begin_waiting(); });
}

void Subagents::call_provider(const std::shared_ptr<Child>& child, CallProvider call) {
    ProviderRequest request = host_.request_for(call);
    // The parent's system prompt and tools (its cached prefix); what makes this a subagent
    // rides where plan mode's note would.
    std::string note;
    for (const PromptLayer& layer : load_prompt_layers(host_.tools.dirs, host_.tools.workspace.root,
                                                       Mode::build, host_.providers.current()))
        if (layer.name == "subagent") note = layer.text;
    if (!child->guidance.empty())
        note +=
            "\n\nThe instructions of the subagent '" + child->agent + "':\n\n" + child->guidance;
    request.plan_note = std::move(note);
    PlanModel who = setting_.model ? *setting_.model : host_.providers.answering(child->planning);
    std::weak_ptr<Child> weak = child;
    child->cancel_provider = host_.providers.start(
        std::move(request),
        [this, weak, turn = call.turn, step = call.step,
         model = who.model](const ProviderReport& r) {
            auto c = weak.lock();
            if (!c || c->phase == Child::Phase::finished) return;
            ProviderReport named = r;
            if (r.kind == ProviderReport::Kind::usage || r.kind == ProviderReport::Kind::done) {
                if (!named.data.is_object()) named.data = nlohmann::json::object();
                named.data["model"] = model;
            }
            Effects out;
            c->loop.on_provider(turn, step, named, out);
            perform(c, out);
        },
        who);
}

void Subagents::run_tool(const std::shared_ptr<Child>& child, const RunTool& run) {
    asio::post(host_.io, [this, weak = std::weak_ptr<Child>(child), run] {
        auto c = weak.lock();
        if (!c || c->phase == Child::Phase::finished) return;
        Effects before;
        const bool go = c->loop.may_run(run, before);
        perform(c, before);
        if (!go) return;
        c->context.output_cap = tool_output_cap(c->loop.context().window);
        ToolCancel cancel = rio::run_tool(c->context, run, [this, weak](ToolReport report) {
            auto c = weak.lock();
            if (!c || c->phase == Child::Phase::finished) return;
            c->cancel_tool = nullptr;
            redact(report.content, host_.providers.secrets());
            if (report.output) redact(*report.output, host_.providers.secrets());
            Effects out;
            c->loop.on_tool(report, out);
            perform(c, out);
        });
        if (cancel) c->cancel_tool = std::move(cancel);
    });
}

} // namespace rio
