// rio-acp driven by the real ACP client library (@agentclientprotocol/sdk, pinned in
// tests/node/package-lock.json), with the script provider as the model:
//   node acp_e2e.mjs RIO_ACP RIO_CORE [TEST_NAME]
// Each test prints "ok NAME" or throws; a missing Node.js or package fails, never skips.
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, writeFileSync, existsSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const [rioAcp, rioCore, only] = process.argv.slice(2);
const GREET = 'def greet(name):\n    return f"Hello, {name}!"\n';

function assert(cond, what) {
  if (!cond) throw new Error("assertion failed: " + what);
}

// A project with greet.py, a private home, and a script for the model.
function sandbox(steps) {
  const dir = mkdtempSync(join(tmpdir(), "rio-acp-"));
  const project = join(dir, "project");
  mkdirSync(project);
  writeFileSync(join(project, "greet.py"), GREET);
  writeFileSync(join(dir, "script.json"), JSON.stringify({ log: "calls.jsonl", steps }));
  const env = { ...process.env, HOME: join(dir, "home"), XDG_CONFIG_HOME: join(dir, "config"),
                XDG_DATA_HOME: join(dir, "data"), XDG_STATE_HOME: join(dir, "state"),
                XDG_RUNTIME_DIR: join(dir, "run") };
  delete env.RIO_PROVIDER;
  return {
    dir, project, env, script: join(dir, "script.json"),
    greet: () => readFileSync(join(project, "greet.py"), "utf8"),
    calls: () => existsSync(join(dir, "calls.jsonl"))
      ? readFileSync(join(dir, "calls.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l))
      : [],
    rescript: (next) => writeFileSync(join(dir, "script.json"), JSON.stringify({ log: "calls.jsonl", steps: next })),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

// Calls `take` with each JSON object a stream carries, one per line.
function onJsonLines(stream, take) {
  let buffer = "";
  stream.on("data", (d) => {
    buffer += d;
    for (let nl; (nl = buffer.indexOf("\n")) >= 0; buffer = buffer.slice(nl + 1)) take(JSON.parse(buffer.slice(0, nl)));
  });
}

const tool = (name, input) => ({ name, input });
const planStep = { tools: [tool("present_plan", { title: "Shout", plan: "1. Add a `shout` flag\n2. Test it" })] };
const readStep = { text: "Looking.", tools: [tool("read_file", { path: "greet.py" })] };
const editStep = { tools: [tool("edit_file", { path: "greet.py", old_string: "Hello", new_string: "HELLO" })] };

// Spawns rio-acp, connects the SDK's client to it and runs `body(agent, seen)`. `seen` holds
// every session/update (and the session each named) and permission request, in the order
// the handlers ran; `decide(params, seen, signal)` answers permission requests (`signal`
// aborts when rio-acp cancels the request). `editor.readTextFile(params)`, when given, is offered to
// rio-acp as the client's fs/read_text_file.
async function withRioAcp(box, args, decide, body, editor = {}) {
  const child = spawn(rioAcp, ["--core", rioCore, ...args], { env: box.env, stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
  const seen = { updates: [], permissions: [], sessionIds: new Set(), child };
  let app = acp.client({ name: "rio-acp-e2e" })
    .onRequest(acp.methods.client.session.requestPermission, async ({ params, signal }) => {
      seen.permissions.push(params);
      return decide(params, seen, signal);
    })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      seen.updates.push(params.update);
      seen.sessionIds.add(params.sessionId);
    });
  if (editor.readTextFile)
    app = app.onRequest(acp.methods.client.fs.readTextFile, async ({ params }) => editor.readTextFile(params));
  try {
    await app.connectWith(stream, async (agent) => {
      const init = await agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: !!editor.readTextFile, writeTextFile: false }, terminal: false },
        clientInfo: { name: "rio-acp-e2e", version: "1" },
      });
      assert(init.protocolVersion === 1, "protocol version 1");
      await body(agent, seen);
    });
  } finally {
    child.stdin.end();
  }
  return exited;
}

// Waits for something to happen (an update whose handler has not run yet, a reply, a
// socket), polling until a generous deadline; never asserts that something did not happen.
async function until(what, pred, seconds = 30) {
  const deadline = Date.now() + seconds * 1000;
  while (!pred()) {
    if (Date.now() > deadline) throw new Error("never happened: " + what);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

// A promise's outcome, waited for until a generous deadline: `{value}` or `{error}`.
async function settled(what, promise, seconds = 30) {
  let outcome;
  promise.then((value) => { outcome = { value }; }, (error) => { outcome = { error }; });
  await until(what, () => outcome, seconds);
  return outcome;
}

// The rio-core processes started for `box`'s project (their command line names it).
// A core another client shares, in build mode as the tests of a core rio-acp starts itself (a
// new core starts in plan). Ready once it says it listens: its socket file exists a moment
// before it accepts, and under ASan that moment is long enough to be refused.
async function startSharedCore(box, socket) {
  const core = spawn(rioCore, ["--mode", "build", "--listen", "unix:" + socket, "--project", box.project, "--provider", "script:" + box.script],
                     { env: box.env, stdio: ["pipe", "inherit", "pipe"] });
  let said = "";
  core.stderr.on("data", (d) => { said += d; process.stderr.write(d); });
  await until("the core listening", () => said.includes("listening on"));
  return core;
}

function coresOf(box) {
  return readdirSync("/proc").filter((p) => /^\d+$/.test(p)).filter((p) => {
    try {
      const argv = readFileSync(`/proc/${p}/cmdline`, "utf8").split("\0");
      return argv[0].endsWith("rio-core") && argv.includes(box.project);
    } catch { return false; }
  });
}

// rio-acp's private core dies mid-turn (the OOM killer, a crash): a command waits for the
// editor's permission, the core is killed, and the prompt answers with what happened.
async function killCoreMidTurn(agent, box, seen) {
  const sessionId = await newSession(agent, box, "review");
  const prompt = agent.request(acp.methods.agent.session.prompt,
                               { sessionId, prompt: [{ type: "text", text: "run it" }] });
  await until("the command's permission request", () => seen.permissions.length === 1);
  const cores = coresOf(box);
  assert(cores.length === 1, "one private core, got " + cores);
  process.kill(Number(cores[0]), "SIGKILL");
  const lost = await settled("the prompt's answer once its core died", prompt);
  assert(lost.error && lost.error.code === -32603, "an error, got " + JSON.stringify(lost));
  assert(lost.error.message.includes("rio-core went away") &&
         lost.error.message.includes("the next prompt resumes session " + sessionId),
         "it says what happened and how to go on: " + lost.error.message);
  return { sessionId, core: cores[0] };
}

async function newSession(agent, box, mode) {
  const s = await agent.request(acp.methods.agent.session.new, { cwd: box.project, mcpServers: [] });
  assert(s.modes.availableModes.map((m) => m.id).join() === "plan,review,auto", "three modes");
  assert(s.configOptions[0].id === "mode" && s.configOptions[0].category === "mode", "mode option");
  // DESIGN §15: review is the default, whatever the user's default_mode (plan) for rio itself.
  assert(s.modes.currentModeId === "review", "a new session starts in review, got " + s.modes.currentModeId);
  if (mode) await agent.request(acp.methods.agent.session.setMode, { sessionId: s.sessionId, modeId: mode });
  return s.sessionId;
}

const selected = (optionId) => ({ outcome: { outcome: "selected", optionId } });
const byKind = (kind) => (params) => selected(params.options.find((o) => o.kind === kind).optionId);
// Answers a permission request only when rio-acp withdraws it ($/cancel_request), as ACP has
// a client answer a cancelled request.
const whenWithdrawn = (params, seen, signal) => new Promise((resolve) => {
  const cancelled = () => resolve({ outcome: { outcome: "cancelled" } });
  if (signal.aborted) cancelled(); else signal.addEventListener("abort", cancelled, { once: true });
});

const tests = {
  // DESIGN §15: a client offering fs/read_text_file is asked for the file, and the model
  // reads the editor's unsaved text, not the disk's; a file the editor says it lacks is
  // read from the disk.
  async read_file_reads_the_editors_unsaved_text() {
    const unsaved = 'def greet(name):\n    return "UNSAVED in the editor"\n';
    const box = sandbox([readStep, { tools: [tool("read_file", { path: "notes.txt" })] }, { text: "Read." }]);
    writeFileSync(join(box.project, "notes.txt"), "on disk only\n");
    const asked = [];
    const readTextFile = async (params) => {
      asked.push(params);
      if (params.path.endsWith("greet.py")) return { content: unsaved };
      throw acp.RequestError.resourceNotFound(params.path);
    };
    await withRioAcp(box, ["--provider", "script:" + box.script], byKind("allow_once"), async (agent) => {
      const sessionId = await newSession(agent, box, "plan");
      const r = await agent.request(acp.methods.agent.session.prompt,
                                    { sessionId, prompt: [{ type: "text", text: "read greet.py" }] });
      assert(r.stopReason === "end_turn", "end_turn, got " + r.stopReason);
      assert(asked.length === 2, "the editor was asked twice, got " + JSON.stringify(asked));
      assert(asked[0].sessionId === sessionId && asked[0].path === join(box.project, "greet.py"), "asked for greet.py by its absolute path");
      const calls = box.calls();
      const firstResult = JSON.stringify(calls[1].conversation.at(-1));
      assert(firstResult.includes("UNSAVED in the editor") && !firstResult.includes("Hello"), "the model read the editor's text: " + firstResult);
      const secondResult = JSON.stringify(calls[2].conversation.at(-1));
      assert(secondResult.includes("on disk only"), "a file the editor lacks is read from the disk: " + secondResult);
      assert(box.greet() === GREET, "the disk is untouched");
    }, { readTextFile });
    box.cleanup();
  },

  async a_plan_approved_with_auto_accept_edits_the_file() {
    const box = sandbox([readStep, planStep, editStep, { text: "Done." }]);
    await withRioAcp(box, ["--provider", "script:" + box.script], byKind("allow_always"), async (agent, seen) => {
      const sessionId = await newSession(agent, box, "plan");
      const r = await agent.request(acp.methods.agent.session.prompt,
                                    { sessionId, prompt: [{ type: "text", text: "add a shout flag" }] });
      assert(r.stopReason === "end_turn", "end_turn, got " + r.stopReason);
      await until("the last message", () => seen.updates.some((u) => u.sessionUpdate === "agent_message_chunk" && u.content.text === "Done."));
      const read = seen.updates.find((u) => u.sessionUpdate === "tool_call" && u.kind === "read");
      assert(read && read.title === "read greet.py" && read.locations[0].path === join(box.project, "greet.py"), "the read as a tool call");
      assert(seen.permissions.length === 1, "one permission request: the plan");
      const plan = seen.permissions[0];
      assert(plan.toolCall.kind === "switch_mode" && plan.toolCall.content[0].content.text.includes("shout"), "the plan text in the request");
      assert(JSON.stringify(plan.options.map((o) => [o.name, o.kind])) === JSON.stringify([
        ["Yes, and auto-accept edits", "allow_always"], ["Yes, and review each edit", "allow_once"],
        ["No, keep planning", "reject_once"]]), "the three options");
      const modes = seen.updates.filter((u) => u.sessionUpdate === "current_mode_update").map((u) => u.currentModeId);
      assert(modes.at(-1) === "auto", "the mode update after approval, got " + modes);
      const edit = seen.updates.find((u) => u.sessionUpdate === "tool_call" && u.kind === "edit");
      assert(edit && edit.content[0].type === "diff" && edit.content[0].newText === "HELLO", "an edit with a diff");
      assert(box.greet().includes("HELLO"), "the file changed on disk");
    });
    box.cleanup();
  },

  // DESIGN §20: the approved plan's steps reach the client as ACP `plan` updates, each
  // plan_progress call a new one; skipped is completed with its words (decision 0064).
  async plan_progress_reaches_the_client_as_plan_updates() {
    const progress = (step, status, note) => tool("plan_progress", note ? { step, status, note } : { step, status });
    const box = sandbox([planStep, { tools: [progress(1, "in_progress"), editStep.tools[0], progress(1, "done"),
                                             progress(2, "skipped", "no tests here")] }, { text: "Done." }]);
    await withRioAcp(box, ["--provider", "script:" + box.script], byKind("allow_always"), async (agent, seen) => {
      const sessionId = await newSession(agent, box, "plan");
      const r = await agent.request(acp.methods.agent.session.prompt,
                                    { sessionId, prompt: [{ type: "text", text: "add a shout flag" }] });
      assert(r.stopReason === "end_turn", "end_turn, got " + r.stopReason);
      await until("the last plan update", () => seen.updates.filter((u) => u.sessionUpdate === "plan").length >= 4);
      const plans = seen.updates.filter((u) => u.sessionUpdate === "plan");
      const statuses = plans.map((p) => p.entries.map((e) => e.status).join(","));
      assert(JSON.stringify(statuses) === JSON.stringify([
        "pending,pending", "in_progress,pending", "completed,pending", "completed,completed"]), "statuses, got " + statuses);
      assert(plans[0].entries[0].content === "Add a shout flag" && plans[0].entries[0].priority === "medium", "an entry's content");
      assert(plans[3].entries[1].content === "Test it (skipped: no tests here)", "skipped says so, got " + plans[3].entries[1].content);
      assert(box.greet().includes("HELLO"), "the work went on");
    });
    box.cleanup();
  },

  // Issue 43: /check N runs a step's check again; the answer is one message, the plan follows.
  async check_is_a_slash_command_that_runs_a_steps_check_again() {
    const steps = [{ text: "Make it", check: { argv: ["sh", "-c", "test -f made || exit 4"] } }];
    const box = sandbox([{ tools: [tool("present_plan", { title: "Make", plan: "- make it\n", steps })] },
                         { tools: [tool("plan_progress", { step: 1, status: "done" })] }, { text: "It failed." }]);
    await withRioAcp(box, ["--provider", "script:" + box.script], byKind("allow_always"), async (agent, seen) => {
      const sessionId = await newSession(agent, box, "plan");
      await until("the slash commands", () => seen.updates.some((u) => u.sessionUpdate === "available_commands_update" &&
                                                                   u.availableCommands.some((c) => c.name === "check")));
      const ask = (text) => agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
      assert((await ask("make it")).stopReason === "end_turn", "the turn ends");
      writeFileSync(join(box.project, "made"), "");
      const before = seen.updates.length;
      assert((await ask("/check 1")).stopReason === "end_turn", "/check ends its prompt");
      const said = seen.updates.slice(before).filter((u) => u.sessionUpdate === "agent_message_chunk").map((u) => u.content.text).join("");
      assert(said.startsWith("Step 1 (Make it): check passed: sh -c") && said.includes("Step 1 is done, verified."), "the answer, got " + said);
      await until("the plan update", () => seen.updates.slice(before).some((u) => u.sessionUpdate === "plan" && u.entries[0].status === "completed"));
      const after = seen.updates.length;
      assert((await ask("/check 7")).stopReason === "end_turn", "a refused /check ends its prompt too");
      const refused = seen.updates.slice(after).filter((u) => u.sessionUpdate === "agent_message_chunk").map((u) => u.content.text).join("");
      assert(refused.includes("the approved plan has 1 step, not 7"), "the refusal in words, got " + refused);
      assert(box.calls().length === 3, "no model call for /check");
    });
    box.cleanup();
  },

  async a_rejected_plan_changes_nothing_and_the_model_is_told() {
    const box = sandbox([planStep, editStep, { text: "What should change?" }]);
    await withRioAcp(box, ["--provider", "script:" + box.script], byKind("reject_once"), async (agent, seen) => {
      const sessionId = await newSession(agent, box, "plan");
      const r = await agent.request(acp.methods.agent.session.prompt,
                                    { sessionId, prompt: [{ type: "text", text: "add a shout flag" }] });
      assert(r.stopReason === "end_turn", "end_turn");
      assert(seen.permissions.length === 1, "only the plan asked");
      assert(box.greet() === GREET, "nothing changed");
      const told = JSON.stringify(box.calls()[1].conversation);
      assert(told.includes("The user rejected the plan."), "the model was told");
    });
    box.cleanup();
  },

  // Issue 32 item 2: what a command printed is its tool call's content, the exit under it.
  async a_commands_output_is_its_tool_calls_content() {
    const program = "import sys\nprint('FAIL: test_x')\nprint('\\x1b[31mAssertionError\\x1b[0m', file=sys.stderr)\nsys.exit(1)\n";
    const box = sandbox([{ tools: [tool("run_command", { argv: ["python3", "-c", program] })] },
                         { text: "It failed." }]);
    await withRioAcp(box, ["--provider", "script:" + box.script], byKind("allow_once"), async (agent, seen) => {
      const sessionId = await newSession(agent, box, "review");
      const r = await agent.request(acp.methods.agent.session.prompt,
                                    { sessionId, prompt: [{ type: "text", text: "run the tests" }] });
      assert(r.stopReason === "end_turn", "end_turn, got " + r.stopReason);
      const failed = () => seen.updates.filter((u) => u.sessionUpdate === "tool_call_update" && u.status === "failed");
      await until("the command's result", () => failed().length === 1);
      const done = failed();
      const text = done[0].content[0].content.text;
      assert(text.startsWith("```\nFAIL: test_x\nAssertionError\n```\nexit code 1 · "),
             "the output in a fence, colours out, the exit under it: " + JSON.stringify(text));
    });
    box.cleanup();
  },

  async cancel_mid_turn_ends_the_prompt_cancelled() {
    const box = sandbox([{ tools: [tool("run_command", { argv: ["true"] })] }, { text: "ran" }]);
    // As the spec has a client do it: session/cancel first, then every pending permission
    // request answered "cancelled".
    let cancelSent;
    const cancelled = new Promise((resolve) => { cancelSent = resolve; });
    await withRioAcp(box, ["--provider", "script:" + box.script],
      () => cancelled.then(() => ({ outcome: { outcome: "cancelled" } })),
      async (agent, seen) => {
        const sessionId = await newSession(agent, box, "review");
        const prompt = agent.request(acp.methods.agent.session.prompt,
                                     { sessionId, prompt: [{ type: "text", text: "run it" }] });
        await until("the command's permission request", () => seen.permissions.length === 1);
        assert(seen.permissions[0].toolCall.kind === "execute", "a command asks");
        await agent.notify(acp.methods.agent.session.cancel, { sessionId });
        cancelSent();
        const r = await prompt;
        assert(r.stopReason === "cancelled", "cancelled, got " + r.stopReason);
        assert(box.calls().length === 1, "the model was not called again");
      });
    box.cleanup();
  },

  // Issue 40 item 5: the SDK's request cancellation. A $/cancel_request naming a prompt stops
  // its turn as session/cancel does, withdraws the permission request the turn waited on, and
  // the prompt answers `cancelled`; an id nothing waits on is ignored.
  async cancel_request_stops_the_prompt_it_names() {
    const box = sandbox([{ tools: [tool("run_command", { argv: ["true"] })] }, { text: "ran" }]);
    await withRioAcp(box, ["--provider", "script:" + box.script], whenWithdrawn, async (agent, seen) => {
      const sessionId = await newSession(agent, box, "review");
      await agent.notify(acp.methods.protocol.cancelRequest, { requestId: 987654 });
      await agent.notify(acp.methods.protocol.cancelRequest, { requestId: "not-a-request" });
      const stop = new AbortController();
      const prompt = agent.request(acp.methods.agent.session.prompt,
                                   { sessionId, prompt: [{ type: "text", text: "run it" }] },
                                   { cancellationSignal: stop.signal });
      await until("the command's permission request", () => seen.permissions.length === 1);
      stop.abort();
      const r = await settled("the prompt's answer after $/cancel_request", prompt);
      assert(r.value && r.value.stopReason === "cancelled", "cancelled, got " + JSON.stringify(r));
      assert(box.calls().length === 1, "the model was not called again");
    });
    box.cleanup();
  },

  // Issue 40 item 4: a session whose core died is loaded again on a new core, and its next
  // prompt goes there (it used to answer -32002 "Session not found").
  async a_session_whose_core_died_is_loaded_on_a_new_core_and_goes_on() {
    const box = sandbox([{ tools: [tool("run_command", { argv: ["true"] })] }]);
    await withRioAcp(box, ["--provider", "script:" + box.script], whenWithdrawn, async (agent, seen) => {
      const { sessionId, core } = await killCoreMidTurn(agent, box, seen);
      box.rescript([{ text: "Back again." }]);
      // Bad loads first: each a clear error that costs the session nothing.
      const load = (params) => agent.request(acp.methods.agent.session.load, { sessionId, cwd: box.project, mcpServers: [], ...params }).then(() => null, (e) => e);
      const relative = await load({ cwd: "project" });
      assert(relative && relative.code === -32602, "a relative cwd is refused, got " + JSON.stringify(relative));
      const unknown = await load({ sessionId: "20990101-000000-0000" });
      assert(unknown && unknown.code === -32002, "an unknown session is not found, got " + JSON.stringify(unknown));
      seen.updates.length = 0;
      seen.sessionIds.clear();
      const loaded = await agent.request(acp.methods.agent.session.load, { sessionId, cwd: box.project, mcpServers: [] });
      assert(loaded.modes.currentModeId === "review", "the loaded session's mode, got " + loaded.modes.currentModeId);
      assert(seen.updates.some((u) => u.sessionUpdate === "user_message_chunk" && u.content.text === "run it"), "the conversation replayed");
      assert(seen.sessionIds.size === 1 && seen.sessionIds.has(sessionId), "replayed as the session's updates, got " + [...seen.sessionIds]);
      // The core the unknown id started exits once its pipe closes.
      await until("one core, a new one", () => coresOf(box).length === 1 && coresOf(box)[0] !== core);
      const cores = coresOf(box);
      const r = await agent.request(acp.methods.agent.session.prompt,
                                    { sessionId, prompt: [{ type: "text", text: "go on" }] });
      assert(r.stopReason === "end_turn", "end_turn, got " + r.stopReason);
      assert(seen.permissions.length === 1, "the dead core's question is not asked again, got " + seen.permissions.length);
      const said = () => seen.updates.filter((u) => u.sessionUpdate === "agent_message_chunk").map((u) => u.content.text).join("");
      await until("the answer", () => said().includes("Back again."));
      // Loaded again while its core runs: shown from that core, no second one writing its file.
      seen.updates.length = 0;
      await agent.request(acp.methods.agent.session.load, { sessionId, cwd: box.project, mcpServers: [] });
      assert(seen.updates.some((u) => u.sessionUpdate === "user_message_chunk" && u.content.text === "go on"), "replayed again");
      assert(JSON.stringify(coresOf(box)) === JSON.stringify(cores), "the same core, got " + coresOf(box));
    });
    const sent = box.calls().at(-1).conversation.map((m) => m.text);
    assert(sent[0] === "run it" && sent.at(-1) === "go on", "the new core has the whole conversation, got " + JSON.stringify(sent));
    box.cleanup();
  },

  // A prompt to a session whose core died, with no session/load first: rio-acp resumes the
  // session on a new core itself and says so in the answer.
  async a_prompt_after_its_core_died_resumes_the_session_on_a_new_core() {
    const box = sandbox([{ tools: [tool("run_command", { argv: ["true"] })] }]);
    await withRioAcp(box, ["--provider", "script:" + box.script], whenWithdrawn, async (agent, seen) => {
      const { sessionId, core } = await killCoreMidTurn(agent, box, seen);
      box.rescript([{ text: "Back again." }]);
      const r = await agent.request(acp.methods.agent.session.prompt,
                                    { sessionId, prompt: [{ type: "text", text: "go on" }] });
      assert(r.stopReason === "end_turn", "end_turn, got " + r.stopReason);
      const texts = () => seen.updates.filter((u) => u.sessionUpdate === "agent_message_chunk").map((u) => u.content.text);
      await until("the answer", () => texts().join("").includes("Back again."));
      assert(texts().some((t) => t.startsWith("(rio-core had gone away") && t.includes("resumed on a new rio-core")),
             "the answer says the core was replaced: " + JSON.stringify(texts()));
      const cores = coresOf(box);
      assert(cores.length === 1 && cores[0] !== core, "a new core, got " + cores);
      assert(seen.permissions.length === 1, "the dead core's question is not asked again, got " + seen.permissions.length);
    });
    const sent = box.calls().at(-1).conversation.map((m) => m.text);
    assert(sent[0] === "run it" && sent.at(-1) === "go on", "the new core has the whole conversation, got " + JSON.stringify(sent));
    box.cleanup();
  },

  // The core dies while session/new waits for an editor's MCP server to start: the request
  // answers with what happened instead of waiting for ever.
  async a_core_that_dies_while_a_session_opens_says_so() {
    const box = sandbox([]);
    // `sleep` never answers MCP's initialize: it stays starting. Its argument finds it.
    const marker = String(600 + Math.floor(Math.random() * 1e6) / 1e6);
    const sleeper = () => readdirSync("/proc").filter((p) => /^\d+$/.test(p)).filter((p) => {
      try { return readFileSync(`/proc/${p}/cmdline`, "utf8").split("\0").includes(marker); } catch { return false; }
    });
    await withRioAcp(box, ["--provider", "script:" + box.script], byKind("allow_once"), async (agent) => {
      const opening = agent.request(acp.methods.agent.session.new, { cwd: box.project, mcpServers: [
        { name: "slow", command: "sleep", args: [marker], env: [] }] });
      await until("the editor's server starting", () => sleeper().length > 0);
      process.kill(Number(coresOf(box)[0]), "SIGKILL");
      const r = await settled("session/new's answer once its core died", opening);
      assert(r.error && r.error.code === -32603 && r.error.message.includes("rio-core went away while the session opened"),
             "an error saying so, got " + JSON.stringify(r));
    });
    for (const p of sleeper()) process.kill(Number(p), "SIGKILL");
    box.cleanup();
  },

  // A shared core (--connect) is someone else's to start again: a prompt after it went away
  // says so and what to do, and session/load resumes the session once it runs again.
  async a_shared_core_that_went_away_is_loaded_again_once_it_runs() {
    const box = sandbox([{ tools: [tool("run_command", { argv: ["true"] })] }]);
    const socket = join(box.dir, "core.sock");
    const startCore = () => startSharedCore(box, socket);
    let core = await startCore();
    await withRioAcp(box, ["--connect", "unix:" + socket], whenWithdrawn, async (agent, seen) => {
      const sessionId = await newSession(agent, box, "review");
      const prompt = agent.request(acp.methods.agent.session.prompt,
                                   { sessionId, prompt: [{ type: "text", text: "run it" }] });
      await until("the command's permission request", () => seen.permissions.length === 1);
      const exited = new Promise((resolve) => core.on("exit", resolve));
      core.kill("SIGKILL");
      await exited;
      const lost = await settled("the prompt's answer once the core died", prompt);
      const words = "once rio-core at unix:" + socket + " runs again, load the session (session/load) to go on";
      assert(lost.error && lost.error.code === -32603 && lost.error.message.includes(words),
             "it says what happened and what to do: " + JSON.stringify(lost));
      const again = await agent.request(acp.methods.agent.session.prompt,
                                        { sessionId, prompt: [{ type: "text", text: "go on" }] }).then(() => null, (e) => e);
      assert(again && again.code === -32603 && again.message.includes(words), "a prompt before the load says the same: " + JSON.stringify(again));
      rmSync(socket);
      box.rescript([{ text: "Back again." }]);
      core = await startCore();
      await agent.request(acp.methods.agent.session.load, { sessionId, cwd: box.project, mcpServers: [] });
      const r = await agent.request(acp.methods.agent.session.prompt,
                                    { sessionId, prompt: [{ type: "text", text: "go on" }] });
      assert(r.stopReason === "end_turn", "end_turn, got " + r.stopReason);
    });
    const sent = box.calls().at(-1).conversation.map((m) => m.text);
    assert(sent[0] === "run it" && sent.at(-1) === "go on", "the conversation went on, got " + JSON.stringify(sent));
    core.kill("SIGTERM");
    box.cleanup();
  },

  async an_editor_that_vanishes_mid_turn_stops_it_and_its_core_exits() {
    const box = sandbox([planStep, { text: "planned" }]);
    const child = spawn(rioAcp, ["--core", rioCore, "--provider", "script:" + box.script],
                        { env: box.env, stdio: ["pipe", "pipe", "inherit"] });
    const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
    const lines = [];
    onJsonLines(child.stdout, (m) => lines.push(m));
    const send = (m) => child.stdin.write(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\n");
    send({ id: 0, method: "initialize", params: { protocolVersion: 1 } });
    send({ id: 1, method: "session/new", params: { cwd: box.project, mcpServers: [] } });
    await until("the session", () => lines.some((m) => m.id === 1));
    const sessionId = lines.find((m) => m.id === 1).result.sessionId;
    send({ id: 2, method: "session/set_mode", params: { sessionId, modeId: "plan" } });
    send({ id: 3, method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text: "plan it" }] } });
    await until("the permission request", () => lines.some((m) => m.method === "session/request_permission"));
    const cores = () => readdirSync("/proc").filter((p) => /^\d+$/.test(p)).filter((p) => {
      try { return readFileSync(`/proc/${p}/cmdline`, "utf8").split("\0").includes(box.project); } catch { return false; }
    });
    assert(cores().length === 1, "one private core for the session");
    child.stdin.end(); // the editor is gone, with a question open
    assert(await exited === 0, "rio-acp exits 0");
    assert(cores().length === 0, "its core exited with it");
    assert(box.calls().length === 1, "the turn went no further");
    // The core ended the turn itself (a killed core could not): the plan nobody decided is
    // filed as abandoned.
    const plans = readdirSync(join(box.project, ".rio", "plans"));
    assert(plans.length === 1, "one plan filed");
    const plan = readFileSync(join(box.project, ".rio", "plans", plans[0]), "utf8");
    assert(plan.includes("status: abandoned"), "the undecided plan is abandoned:\n" + plan);
    box.cleanup();
  },

  async plan_mode_refuses_a_hostile_edit_without_asking() {
    const box = sandbox([editStep, { tools: [tool("create_file", { path: "x.py", content: "x" })] }, { text: "tried" }]);
    await withRioAcp(box, ["--provider", "script:" + box.script], byKind("allow_once"), async (agent, seen) => {
      const sessionId = await newSession(agent, box, "plan");
      const r = await agent.request(acp.methods.agent.session.prompt,
                                    { sessionId, prompt: [{ type: "text", text: "plan only" }] });
      assert(r.stopReason === "end_turn", "end_turn");
      await until("the refusals", () => seen.updates.filter((u) => u.sessionUpdate === "tool_call_update" && u.status === "failed").length === 2);
      assert(seen.permissions.length === 0, "no permission request for a write in plan mode");
      assert(box.greet() === GREET && !existsSync(join(box.project, "x.py")), "nothing written");
    });
    box.cleanup();
  },

  // session/new's mcpServers start in the core: the model is offered the server's tools, and a
  // write through one is a permission request like any other, applied once allowed.
  async an_editors_mcp_server_is_offered_behind_the_gate() {
    const box = sandbox([]);
    const notes = join(box.project, "notes.txt");
    writeFileSync(box.script, JSON.stringify({ log: "calls.jsonl", steps: [
      { tools: [tool("mcp__fs__write_file", { path: notes, content: "from the editor's server\n" })] },
      { text: "Written." }] }));
    const server = join(dirname(fileURLToPath(import.meta.url)),
                        "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
    await withRioAcp(box, ["--provider", "script:" + box.script], byKind("allow_once"), async (agent, seen) => {
      const s = await agent.request(acp.methods.agent.session.new, { cwd: box.project, mcpServers: [
        { name: "fs", command: process.execPath, args: [server, box.project], env: [{ name: "LOG", value: "1" }] }] });
      const r = await agent.request(acp.methods.agent.session.prompt,
                                    { sessionId: s.sessionId, prompt: [{ type: "text", text: "write notes" }] });
      assert(r.stopReason === "end_turn", "end_turn, got " + r.stopReason);
      assert(box.calls()[0].tools.includes("mcp__fs__write_file"), "the first call is offered the server's tools");
      assert(seen.permissions.length === 1, "one permission request, got " + seen.permissions.length);
      const call = seen.permissions[0].toolCall;
      assert(call.title === "Call write_file of the MCP server fs", "the request names the tool: " + call.title);
      assert(call.content[0].content.text.includes("from the editor's server"), "and its arguments");
      assert(readFileSync(notes, "utf8") === "from the editor's server\n", "written once allowed");
    });
    box.cleanup();
  },

  async bad_json_rpc_gets_its_error_codes() {
    const box = sandbox([{ text: "hi" }]);
    const child = spawn(rioAcp, ["--core", rioCore, "--provider", "script:" + box.script], { env: box.env, stdio: ["pipe", "pipe", "inherit"] });
    const lines = [];
    onJsonLines(child.stdout, (m) => lines.push(m));
    const ask = async (line, id) => {
      child.stdin.write(line + "\n");
      await until("an answer to " + line, () => lines.some((m) => m.id === id));
      return lines.find((m) => m.id === id);
    };
    const code = (m) => m.error && m.error.code;
    assert(code(await ask('{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}', 1)) === -32600, "initialize first");
    assert(code(await ask("{oops", null)) === -32700, "parse error");
    lines.length = 0;
    assert(code(await ask("[1,2]", null)) === -32600, "no batches");
    assert((await ask('{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":1}}', 2)).result.protocolVersion === 1, "initialize");
    assert(code(await ask('{"jsonrpc":"2.0","id":3,"method":"frobnicate","params":{}}', 3)) === -32601, "unknown method");
    assert(code(await ask(`{"jsonrpc":"2.0","id":4,"method":"session/new","params":{"cwd":"${box.project}"}}`, 4)) === -32602, "mcpServers is required");
    assert(code(await ask('{"jsonrpc":"2.0","id":5,"method":"session/prompt","params":{"sessionId":"nope","prompt":[]}}', 5)) === -32002, "unknown session");
    const s = await ask(`{"jsonrpc":"2.0","id":6,"method":"session/new","params":{"cwd":"${box.project}","mcpServers":[]}}`, 6);
    assert(typeof s.result.sessionId === "string", "still serving after all that");
    child.stdin.end();
    const exit = await new Promise((resolve) => child.on("exit", (c) => resolve(c)));
    assert(exit === 0, "rio-acp exits 0 when the editor closes its end, got " + exit);
    box.cleanup();
  },

  // What an independent client checked against ACP's schema found (issue 27): a request is
  // answered whatever its id (null included, which RequestId allows), session/cancel sent as
  // a request too; no authentication method exists to be chosen; an MCP server entry the
  // schema refuses is -32602 naming its field.
  async requests_are_answered_and_bad_params_named_as_the_schema_says() {
    const box = sandbox([{ text: "hi" }]);
    const child = spawn(rioAcp, ["--core", rioCore, "--provider", "script:" + box.script], { env: box.env, stdio: ["pipe", "pipe", "inherit"] });
    const lines = [];
    onJsonLines(child.stdout, (m) => lines.push(m));
    const ask = async (message) => {
      const seen = lines.length;
      child.stdin.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n");
      await until("an answer to " + message.method, () => lines.slice(seen).some((m) => "id" in m && !m.method));
      return lines.slice(seen).find((m) => "id" in m && !m.method);
    };
    assert((await ask({ id: 1, method: "initialize", params: { protocolVersion: 1 } })).result.authMethods.length === 0, "no auth methods");

    const auth = await ask({ id: 2, method: "authenticate", params: { methodId: "oauth-of-someone-else" } });
    assert(auth.id === 2 && auth.error && auth.error.code === -32602, "an unknown auth method is refused: " + JSON.stringify(auth));
    assert(auth.error.message.includes("oauth-of-someone-else"), "the refusal names the method");

    for (const [servers, field] of [[[{ name: "x" }], "mcpServers[0].command"],
                                    [[{ name: "ok", command: "/bin/true", args: [], env: [] }, { command: "/bin/true" }], "mcpServers[1].name"],
                                    [[{ name: "x", command: "/bin/true", args: [1] }], "mcpServers[0].args[0]"],
                                    [[{ name: "x", command: "/bin/true", env: [{ name: "A" }] }], "mcpServers[0].env[0].value"],
                                    [[{ type: "http", name: "h", headers: [] }], "mcpServers[0].url"]]) {
      const r = await ask({ id: 3, method: "session/new", params: { cwd: box.project, mcpServers: servers } });
      assert(r.error && r.error.code === -32602, "-32602 for " + JSON.stringify(servers) + ": " + JSON.stringify(r));
      assert(r.error.message.includes(field) && r.error.data.field === field, "names " + field + ": " + JSON.stringify(r.error));
    }

    const opened = await ask({ id: null, method: "session/new", params: { cwd: box.project, mcpServers: [] } });
    assert(opened.id === null && typeof opened.result.sessionId === "string", "a null id is answered: " + JSON.stringify(opened));
    const sessionId = opened.result.sessionId;

    const cancelled = await ask({ id: 7, method: "session/cancel", params: { sessionId } });
    assert(cancelled.id === 7 && cancelled.result && !cancelled.error, "session/cancel with an id is answered: " + JSON.stringify(cancelled));
    // $/cancel_request is a notification: ids nothing waits on, or none, change nothing; sent
    // with an id, it is answered.
    child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "$/cancel_request", params: {} }) + "\n");
    child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: { x: 1 } } }) + "\n");
    const withdrawn = await ask({ id: 8, method: "$/cancel_request", params: { requestId: 12345 } });
    assert(withdrawn.id === 8 && withdrawn.result && !withdrawn.error, "$/cancel_request with an id is answered: " + JSON.stringify(withdrawn));
    const prompt = await ask({ id: null, method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text: "hello" }] } });
    assert(prompt.id === null && prompt.result.stopReason === "end_turn", "a prompt with a null id is answered: " + JSON.stringify(prompt));
    child.stdin.end();
    const exit = await new Promise((resolve) => child.on("exit", (c) => resolve(c)));
    assert(exit === 0, "rio-acp exits 0, got " + exit);
    box.cleanup();
  },

  async a_shared_core_shows_one_pending_plan_to_both_clients() {
    const box = sandbox([planStep, { text: "approved elsewhere" }]);
    const socket = join(box.dir, "core.sock");
    const core = await startSharedCore(box, socket);
    // A plain protocol client on the same core.
    const other = net.createConnection(socket);
    const events = [];
    const replies = new Map();
    onJsonLines(other, (m) => {
      if (m.event) events.push(m); else replies.set(m.id, m);
    });
    let next = 100;
    const call = async (op, params = {}) => {
      const id = next++;
      other.write(JSON.stringify({ id, op, params }) + "\n");
      await until("the core's answer to " + op, () => replies.has(id));
      return replies.get(id);
    };
    await call("session.hello", { client: "e2e" });

    let approvedElsewhere = false;
    await withRioAcp(box, ["--connect", "unix:" + socket], async (params) => {
      // The plan waits in the core for both clients: the other one sees it and decides.
      const status = (await call("agent.status")).result;
      assert(status.pending && status.pending.kind === "plan" && status.pending.id === params.toolCall.toolCallId, "the same pending plan");
      const decided = await call("agent.approve", { turn: status.pending.turn, id: status.pending.id, decision: "approve", policy: "review" });
      assert(decided.ok, "the other client's decision is taken");
      approvedElsewhere = true;
      return selected("reject"); // too late: the plan is decided already
    }, async (agent) => {
      const sessionId = await newSession(agent, box, "plan");
      const r = await agent.request(acp.methods.agent.session.prompt,
                                    { sessionId, prompt: [{ type: "text", text: "plan it" }] });
      assert(r.stopReason === "end_turn", "end_turn");
    });
    assert(approvedElsewhere, "the permission request reached the editor");
    await until("agent.decided at the other client", () => events.some((e) => e.event === "agent.decided"));
    const decided = events.filter((e) => e.event === "agent.decided");
    assert(decided.length === 1 && decided[0].params.decision === "approve", "decided once, by the other client");
    const plans = (await call("plans.list")).result.plans;
    assert(plans[0].status === "approved", "the plan file says approved, got " + plans[0].status);
    other.end();
    core.kill("SIGTERM");
    box.cleanup();
  },

  async a_saved_session_is_loaded_by_a_later_rio_acp_with_its_conversation() {
    const box = sandbox([readStep, { text: "Done." }]);
    const args = ["--provider", "script:" + box.script];
    let sessionId;
    await withRioAcp(box, args, byKind("allow_once"), async (agent) => {
      sessionId = await newSession(agent, box);
      const r = await agent.request(acp.methods.agent.session.prompt,
                                    { sessionId, prompt: [{ type: "text", text: "look at greet" }] });
      assert(r.stopReason === "end_turn", "end_turn");
    });
    writeFileSync(box.script, JSON.stringify({ log: "calls.jsonl", steps: [{ text: "Again." }] }));
    await withRioAcp(box, args, byKind("allow_once"), async (agent, seen) => {
      const missing = await agent.request(acp.methods.agent.session.load,
                                          { sessionId: "20990101-000000-0000", cwd: box.project, mcpServers: [] })
        .then(() => null, (e) => e);
      assert(missing && missing.code === -32002, "an unknown session is not found, got " + JSON.stringify(missing));
      const loaded = await agent.request(acp.methods.agent.session.load, { sessionId, cwd: box.project, mcpServers: [] });
      assert(loaded.modes.currentModeId, "the loaded session's modes");
      const kinds = seen.updates.map((u) => u.sessionUpdate);
      const first = kinds.indexOf("user_message_chunk");
      assert(first >= 0 && seen.updates[first].content.text === "look at greet", "the request replayed first");
      assert(seen.updates.some((u) => u.sessionUpdate === "tool_call" && u.kind === "read"), "the read replayed");
      assert(seen.updates.some((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed"), "its result replayed");
      assert(seen.updates.some((u) => u.sessionUpdate === "agent_message_chunk" && u.content.text === "Done."), "the answer replayed");
      const r = await agent.request(acp.methods.agent.session.prompt,
                                    { sessionId, prompt: [{ type: "text", text: "and again" }] });
      assert(r.stopReason === "end_turn", "the loaded session goes on");
    });
    const sent = box.calls().at(-1).conversation;
    assert(sent.length === 5 && sent[0].text === "look at greet" && sent[4].text === "and again",
           "the model gets the whole conversation, got " + JSON.stringify(sent.map((m) => m.text)));
    box.cleanup();
  },

  // DESIGN §18: ACP's usage_update carries the context, /compact is a slash command, and the
  // compaction shows as one line of the agent's text.
  async compact_is_a_slash_command_and_usage_updates_follow() {
    const box = sandbox([{ text: "Hello there. " + "h".repeat(3000) }, { text: "Said hello." }]);
    await withRioAcp(box, ["--provider", "script:" + box.script], byKind("allow_once"), async (agent, seen) => {
      const sessionId = await newSession(agent, box);
      await until("the slash commands", () => seen.updates.some((u) => u.sessionUpdate === "available_commands_update" &&
                                                                   u.availableCommands.some((c) => c.name === "compact")));
      let r = await agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "say hello" }] });
      assert(r.stopReason === "end_turn", "end_turn, got " + r.stopReason);
      await until("a usage update", () => seen.updates.some((u) => u.sessionUpdate === "usage_update" && u.size === 32768 && u.used > 0));
      r = await agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "/compact keep the greeting" }] });
      assert(r.stopReason === "end_turn", "/compact ends its prompt, got " + r.stopReason);
      assert(seen.updates.some((u) => u.sessionUpdate === "agent_message_chunk" && u.content.text.startsWith("(Context compacted: ")),
             "the compaction line");
      const last = box.calls().at(-1);
      assert(last.tools.length === 0 && JSON.stringify(last).includes("keep the greeting"), "a summary request with the instructions");
    });
    box.cleanup();
  },

  // Issue 48: the project's commands are ACP's available commands, and prompting one sends
  // its text with the arguments put in; a task call's subagent shows as that call's content.
  async a_projects_command_runs_and_a_subagent_shows_under_its_call() {
    const box = sandbox([{ tools: [tool("task", { description: "find greet", prompt: "Where?" })] },
                         { tools: [tool("search", { pattern: "Hello" })] },
                         { text: "greet.py line 2" }, { text: "Found it." }]);
    mkdirSync(join(box.project, ".rio", "commands"), { recursive: true });
    writeFileSync(join(box.project, ".rio", "commands", "shout-it.md"),
                  "---\ndescription: make it loud\nargument-hint: FILE\n---\nFind the greeting in $1.\n");
    await withRioAcp(box, ["--provider", "script:" + box.script], byKind("allow_once"), async (agent, seen) => {
      const sessionId = await newSession(agent, box);
      await until("the project's command", () => seen.updates.some((u) => u.sessionUpdate === "available_commands_update" &&
        u.availableCommands.some((c) => c.name === "shout-it" && c.description === "make it loud (project)" &&
                                        c.input.hint === "FILE")));
      const r = await agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "/shout-it greet.py" }] });
      assert(r.stopReason === "end_turn", "end_turn, got " + r.stopReason);
      assert(box.calls()[0].conversation[0].text === "Find the greeting in greet.py.",
             "the command's text reached the model, got " + JSON.stringify(box.calls()[0].conversation[0]));
      const call = seen.updates.find((u) => u.sessionUpdate === "tool_call" && u.title.startsWith("task"));
      assert(call, "the task call is a tool call");
      const steps = seen.updates.filter((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === call.toolCallId &&
                                               u.status === "in_progress");
      assert(steps.length > 0 && steps.at(-1).content[0].content.text.includes('search "Hello"') &&
             steps.at(-1).content[0].content.text.includes("answered: greet.py line 2"),
             "the subagent's steps as the call's content, got " + JSON.stringify(steps.at(-1)));
    });
    box.cleanup();
  },
};

if (only && !(only in tests)) throw new Error("no test " + only);
for (const [name, test] of Object.entries(tests)) {
  if (only && name !== only) continue;
  await test();
  console.log("ok " + name);
}
