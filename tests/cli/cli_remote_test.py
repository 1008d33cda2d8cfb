#!/usr/bin/env python3
"""rio-cli and rio-acp --connect ssh://… against a real OpenSSH server this test starts on a
loopback port, with host and user keys generated in a temporary folder (DESIGN §22, decision
0060). The far rio-core is this build's, started by the far shell through RIO_REMOTE_CORE (or
the remote_core setting): a plan turn files its plan on the far side and a resume over ssh
carries it out; a missing far core, another protocol version, a refused login, an unknown
host key and an unreachable host each get their own message and exit code; a banner before
the core starts is skipped, an endless one is not waited on forever; an option for a host is
refused before ssh runs; an interactive session works; an ACP session runs its core on the
far side."""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_support import (ANSI, GREET, RIO_CLI, RIO_CORE, Pty, Sandbox,  # noqa: E402
                         edit_step, plan_step)
from ssh_server import USER, SshServer, free_port  # noqa: E402
from cli_support import HOSTILE, check_escaped  # noqa: E402

def write_script(path, text):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o755)


def write_fake_core(path, protocol, version, root, stays):
    """A far program that answers session.hello as a rio-core of `protocol` and `version`
    would, then waits for its input to end (`stays`) or goes away at once."""
    write_script(path, "#!/usr/bin/env python3\nimport json, sys\n"
                       "hello = json.loads(sys.stdin.readline())\n"
                       "print(json.dumps({'id': hello['id'], 'ok': True, 'result': {"
                       f"'protocol': {protocol}, 'name': 'rio-core', 'version': '{version}', "
                       f"'ops': [], 'root': {root!r}, 'max_line': 1024}}}}), flush=True)\n"
                       + ("sys.stdin.read()\n" if stays else ""))


class SshCase(unittest.TestCase):
    """An sshd for the class; a sandbox, a far project and a far rio-core for each test."""

    @classmethod
    def setUpClass(cls):
        cls.sshd_dir = tempfile.mkdtemp(prefix="rio-sshd-")
        cls.sshd = SshServer(cls.sshd_dir)

    @classmethod
    def tearDownClass(cls):
        cls.sshd.stop()
        shutil.rmtree(cls.sshd_dir, ignore_errors=True)

    def setUp(self):
        self.box = Sandbox([plan_step()])
        # The far project: its name has a space and a quote, for the far shell to get right.
        self.project = os.path.join(self.box.dir, "far project's dir")
        os.makedirs(self.project)
        with open(os.path.join(self.project, "greet.py"), "w") as f:
            f.write(GREET)
        # The far rio-core: this build's, in the sandbox's home (ssh passes no environment).
        self.far_core = os.path.join(self.box.dir, "far-rio-core")
        write_script(self.far_core, self.far_script(""))
        self.env = {**self.box.env, "RIO_SSH": self.sshd.ssh_command()}
        self.env.pop("RIO_REMOTE_CORE", None)

    def tearDown(self):
        self.box.cleanup()

    def far_script(self, before):
        exports = " ".join(f"{k}='{self.box.env[k]}'" for k in (
            "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR",
            "OLLAMA_HOST"))
        return f"#!/bin/sh\nexport {exports}\n{before}\nexec '{RIO_CORE}' \"$@\"\n"

    def rio_cli(self, *args, env=None, url=None):
        argv = [RIO_CLI, "--provider", "script:" + self.box.script,
                "--connect", url or self.sshd.url(self.project), *args]
        return subprocess.run(argv, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                              env={**self.env, **(env or {})}, timeout=60)

    def far_plans(self):
        folder = os.path.join(self.project, ".rio", "plans")
        return sorted(os.listdir(folder)) if os.path.isdir(folder) else []


class RemoteTest(SshCase):
    def test_a_plan_filed_over_ssh_on_the_far_side_exits_2_and_a_resume_carries_it_out(self):
        r = self.rio_cli("-p", "make it friendlier", "--mode", "plan",
                         env={"RIO_REMOTE_CORE": self.far_core})
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("Plan — Friendlier greeting", r.stdout)
        self.assertEqual(len(self.far_plans()), 1, r.stderr)
        self.assertIn("Plan filed: .rio/plans/" + self.far_plans()[0], r.stdout)
        with open(os.path.join(self.project, "greet.py")) as f:
            self.assertEqual(f.read(), GREET)
        # The far core got the provider and the mode it was given, through the far shell.
        self.assertEqual(self.box.calls()[0]["conversation"][0]["text"], "make it friendlier")
        # The hint says how to carry it out over the same connection; doing so does.
        url = self.sshd.url(self.project)
        m = re.search(r"carry it out with: rio-cli -p --resume (\S+) --approve-plans auto "
                      r"--connect (.*)$", r.stderr, re.M)
        self.assertIsNotNone(m, r.stderr)
        self.assertEqual(shlex.split(m.group(2)), [url])
        self.box.rescript([edit_step(), {"text": "Done."}])
        second = self.rio_cli("-p", "--resume", m.group(1), "--approve-plans", "auto",
                              env={"RIO_REMOTE_CORE": self.far_core})
        self.assertEqual(second.returncode, 0, second.stderr)
        self.assertIn("resumed session " + m.group(1), second.stderr)
        with open(os.path.join(self.project, "greet.py")) as f:
            self.assertNotEqual(f.read(), GREET)
        with open(os.path.join(self.project, ".rio", "plans", self.far_plans()[0])) as f:
            self.assertIn("status: approved", f.read())

    def test_an_interactive_session_over_ssh(self):
        self.box.rescript([{"text": "Hello from the far side."}])
        term = Pty([RIO_CLI, "--provider", "script:" + self.box.script, "--connect",
                    self.sshd.url(self.project)],
                   {**self.env, "RIO_REMOTE_CORE": self.far_core})
        self.addCleanup(term.close)
        term.expect("review ❯ ")
        term.send("say hello\r")
        term.expect("Hello from the far side.")
        term.send("/quit\r")
        self.assertEqual(self.box.calls()[0]["conversation"][0]["text"], "say hello")

    def test_diff_over_ssh_shows_the_far_repository_s_changes(self):
        git = ["git", "-C", self.project, "-c", "user.name=t", "-c", "user.email=t@example.com"]
        subprocess.run(git + ["init", "-q", "-b", "trunk"], check=True)
        subprocess.run(git + ["add", "-A"], check=True)
        subprocess.run(git + ["commit", "-q", "-m", "first"], check=True)
        with open(os.path.join(self.project, "greet.py"), "a") as f:
            f.write("# far edit\n")
        term = Pty([RIO_CLI, "--provider", "script:" + self.box.script, "--connect",
                    self.sshd.url(self.project)],
                   {**self.env, "RIO_REMOTE_CORE": self.far_core})
        self.addCleanup(term.close)
        term.expect("review ❯ ")
        term.send("/diff\r")
        screen = ANSI.sub("", term.expect(r"1 file changed against trunk [0-9a-f]{12}\."))
        self.assertIn("+++ b/greet.py", screen)
        self.assertIn("+# far edit", screen)
        term.send("/quit\r")

    def test_a_terminal_over_ssh_is_a_far_shell_in_the_far_project(self):
        # The protocol as the desktop speaks it, through ssh to the far core: terminal.open
        # starts the far machine's shell in the far project, and its output comes back.
        write_script(self.far_core, self.far_script("export SHELL=/bin/sh PS1='far$ ' ENV="))
        argv = shlex.split(self.sshd.ssh_command()) + [
            "-p", str(self.sshd.port), f"{USER}@127.0.0.1",
            shlex.quote(self.far_core) + " --stdio --project " + shlex.quote(self.project)]
        core = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True, env=self.env)
        self.addCleanup(core.kill)

        def send(ident, op, params):
            core.stdin.write(json.dumps({"id": ident, "op": op, "params": params}) + "\n")
            core.stdin.flush()

        send(1, "terminal.open", {"cols": 80, "rows": 24})
        seen = ""
        while True:
            line = core.stdout.readline()
            self.assertTrue(line, "the far core went away")
            message = json.loads(line)
            if message.get("id") == 1:
                self.assertTrue(message["ok"], message)
                self.assertEqual(message["result"]["cwd"], os.path.realpath(self.project))
                send(2, "terminal.input", {"id": message["result"]["id"],
                                           "data": "echo \"far:$PWD\"; exit 4\n"})
            elif message.get("event") == "terminal.output":
                seen += message["params"]["data"]
            elif message.get("event") == "terminal.exited":
                self.assertEqual(message["params"]["code"], 4)
                break
        self.assertIn("far:" + os.path.realpath(self.project), seen)

    def test_an_interactive_session_that_loses_its_connection_says_how_to_go_on(self):
        fake = os.path.join(self.box.dir, "vanishing-rio-core")
        write_fake_core(fake, protocol=1, version="1", root="/", stays=False)
        term = Pty([RIO_CLI, "--connect", self.sshd.url(self.project)],
                   {**self.env, "RIO_REMOTE_CORE": fake})
        self.addCleanup(term.close)
        term.expect("rio-cli: the conversation so far is kept on the far machine; pick it up "
                    "with: rio-cli --connect ")
        term.expect("--continue")

    def test_claude_shapes_name_the_far_folder_as_cwd(self):
        r = self.rio_cli("-p", "make it friendlier", "--mode", "plan", "--output-format",
                         "stream-json", env={"RIO_REMOTE_CORE": self.far_core})
        self.assertEqual(r.returncode, 2, r.stderr)
        init = json.loads(r.stdout.splitlines()[0])
        self.assertEqual(init["cwd"], self.project)

    def test_a_banner_before_the_far_core_starts_is_skipped(self):
        # .bashrc noise on stdout; the far program named by the remote_core setting.
        write_script(self.far_core, self.far_script(
            "echo 'Welcome to the far machine'\necho '{not json'\necho\necho '[1,2]'"))
        with open(os.path.join(self.box.dir, "config", "rio", "config.json"), "w") as f:
            json.dump({"default_mode": "build", "remote_core": self.far_core}, f)
        r = self.rio_cli("-p", "make it friendlier", "--mode", "plan")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("Plan — Friendlier greeting", r.stdout)
        self.assertEqual(len(self.far_plans()), 1)
        self.assertNotIn("Welcome", r.stdout + r.stderr)

    def test_ssh_gets_no_provider_key_and_the_far_stderr_is_shown_escaped(self):
        # Issue 39: ssh hands its environment to a ProxyCommand, a LocalCommand and SendEnv;
        # what ssh itself was started with is what they see.
        seen_env = os.path.join(self.box.dir, "ssh-env")
        wrapper = os.path.join(self.box.dir, "ssh-wrapper")
        write_script(wrapper, f"#!/bin/sh\nenv > '{seen_env}'\nexec ssh \"$@\"\n")
        ssh = self.sshd.ssh_command().replace("ssh", shlex.quote(wrapper), 1)
        # A far program that answers as a core would, then writes escapes on stderr.
        far = os.path.join(self.box.dir, "noisy-rio-core")
        write_script(far, "#!/usr/bin/env python3\nimport json, sys\n"
                          "hello = json.loads(sys.stdin.readline())\n"
                          "print(json.dumps({'id': hello['id'], 'ok': True, 'result': {"
                          "'protocol': 1, 'name': 'rio-core', 'version': '1', 'ops': [], "
                          "'root': '/', 'max_line': 1024}}), flush=True)\n"
                          f"sys.stderr.write({HOSTILE!r} + ' far end\\n')\n"
                          "sys.stderr.flush()\nsys.stdin.read()\n")
        term = Pty([RIO_CLI, "--connect", self.sshd.url(self.project)],
                   {**self.env, "RIO_REMOTE_CORE": far, "RIO_SSH": ssh,
                    "ANTHROPIC_API_KEY": "sk-ant-secret-1", "OPENAI_API_KEY": "sk-secret-2",
                    "MISTRAL_API_KEY": "secret-3", "RIO_TEST_KEPT": "kept"})
        self.addCleanup(term.close)
        term.expect(r"far end")
        check_escaped(self, term.seen)
        with open(seen_env) as f:
            env = f.read()
        self.assertIn("RIO_TEST_KEPT=kept", env, "the rest of the environment is ssh's")
        for secret in ("sk-ant-secret-1", "sk-secret-2", "secret-3", "_API_KEY="):
            self.assertNotIn(secret, env)

    def test_an_endless_banner_is_not_waited_on(self):
        write_script(self.far_core, "#!/bin/sh\nyes 'You have new mail.' | head -n 100000\n"
                                    "exec cat >/dev/null\n")
        r = self.rio_cli("-p", "task", env={"RIO_REMOTE_CORE": self.far_core})
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("printed 201 lines that are not rio's protocol and no answer from "
                      + self.far_core + " (the first: 'You have new mail.')", r.stderr)

    def test_a_missing_far_core_says_so(self):
        # A name no far PATH has (this machine may well have rio installed; the default
        # name's message is checked in the unit tests).
        r = self.rio_cli("-p", "task", env={"RIO_REMOTE_CORE": "rio-core-not-installed"})
        self.assertEqual(r.returncode, 8, r.stderr)
        self.assertIn("rio-cli: rio-core-not-installed not found on 127.0.0.1; install rio "
                      "there or set RIO_REMOTE_CORE", r.stderr)
        self.assertEqual(self.far_plans(), [])

    def test_another_protocol_version_names_both(self):
        fake = os.path.join(self.box.dir, "old-rio-core")
        write_fake_core(fake, protocol=99, version="9.0.0", root=None, stays=True)
        r = self.rio_cli("-p", "task", env={"RIO_REMOTE_CORE": fake})
        self.assertEqual(r.returncode, 9, r.stderr)
        self.assertIn(fake + " on 127.0.0.1 speaks protocol 99 (rio-core 9.0.0); this rio-cli "
                      "speaks protocol 1: install the same rio release on both machines",
                      r.stderr)

    def test_a_connection_lost_after_the_far_core_answered_says_how_to_go_on(self):
        # A far program that answers session.hello as rio-core does, then goes away.
        fake = os.path.join(self.box.dir, "vanishing-rio-core")
        write_fake_core(fake, protocol=1, version="1", root="/", stays=False)
        r = self.rio_cli("-p", "task", env={"RIO_REMOTE_CORE": fake})
        self.assertEqual(r.returncode, 1, r.stderr)
        m = re.search(r"^rio-cli: the connection to 127\.0\.0\.1 closed\n"
                      r"rio-cli: the conversation so far is kept on the far machine; pick it up "
                      r"with: rio-cli --connect (.*) --continue$", r.stderr, re.M)
        self.assertIsNotNone(m, r.stderr)
        self.assertEqual(shlex.split(m.group(1)), [self.sshd.url(self.project)])

    def test_a_lost_connection_is_an_error_in_every_json_format(self):
        # Issue 40 item 3: what text mode says (the test above), as the error of each JSON
        # format's last object.
        fake = os.path.join(self.box.dir, "vanishing-rio-core")
        write_fake_core(fake, protocol=1, version="1", root="/", stays=False)
        for flags in (["--output", "json"], ["--output", "events"],
                      ["--output-format", "stream-json"]):
            with self.subTest(flags=flags):
                r = self.rio_cli("-p", "task", *flags, env={"RIO_REMOTE_CORE": fake})
                self.assertEqual(r.returncode, 1, r.stderr)
                last = json.loads(r.stdout.splitlines()[-1])
                error = last["params"] if flags[1] == "events" else last["error"]
                self.assertEqual(error["code"], "connection_lost", last)
                m = re.fullmatch(r"the connection to 127\.0\.0\.1 closed; the conversation so far "
                                 r"is kept on the far machine; pick it up with: rio-cli --connect "
                                 r"(.*) --continue", error["message"])
                self.assertIsNotNone(m, error["message"])
                self.assertEqual(shlex.split(m.group(1)), [self.sshd.url(self.project)])

    def test_a_refused_login_says_so(self):
        r = self.rio_cli("-p", "task", env={"RIO_SSH": self.sshd.ssh_command("stranger_key"),
                                            "RIO_REMOTE_CORE": self.far_core})
        self.assertEqual(r.returncode, 6, r.stderr)
        self.assertIn("rio-cli: 127.0.0.1 refused the login; rio runs ssh without prompts",
                      r.stderr)
        self.assertIn("Permission denied (publickey)", r.stderr)

    def test_an_unknown_host_key_says_so(self):
        r = self.rio_cli("-p", "task", env={
            "RIO_SSH": self.sshd.ssh_command(known_hosts="empty_known_hosts"),
            "RIO_REMOTE_CORE": self.far_core})
        self.assertEqual(r.returncode, 7, r.stderr)
        self.assertIn("rio-cli: 127.0.0.1's host key is not known here; connect once with "
                      f"`ssh -p {self.sshd.port} 127.0.0.1` to check and accept it", r.stderr)

    def test_a_changed_host_key_says_so(self):
        r = self.rio_cli("-p", "task", env={
            "RIO_SSH": self.sshd.ssh_command(known_hosts="changed_known_hosts"),
            "RIO_REMOTE_CORE": self.far_core})
        self.assertEqual(r.returncode, 7, r.stderr)
        self.assertIn("rio-cli: the host key of 127.0.0.1 has changed since it was last seen, "
                      "so ssh refused to connect (this can be an attack); if the change is "
                      f"expected, remove the old key (ssh-keygen -R '[127.0.0.1]:{self.sshd.port}')"
                      f" and connect once with `ssh -p {self.sshd.port} 127.0.0.1` to check the "
                      "new one", r.stderr)
        self.assertEqual(self.far_plans(), [])

    def test_an_unreachable_host_says_so(self):
        r = self.rio_cli("-p", "task", url=f"ssh://127.0.0.1:{free_port()}{self.project}")
        self.assertEqual(r.returncode, 5, r.stderr)
        self.assertIn("rio-cli: cannot reach 127.0.0.1 (ssh: ", r.stderr)
        self.assertIn("Connection refused", r.stderr)
        # A result object says it too, with the same exit code.
        r = self.rio_cli("-p", "task", "--output", "json",
                         url=f"ssh://127.0.0.1:{free_port()}{self.project}")
        result = json.loads(r.stdout)
        self.assertEqual((r.returncode, result["exit_code"]), (5, 5), r.stderr)
        self.assertEqual(result["error"]["code"], "connection_failed")
        self.assertIn("cannot reach 127.0.0.1 (ssh: ", result["error"]["message"])

    def test_an_option_for_a_host_is_refused_before_ssh_runs(self):
        marker = os.path.join(self.box.dir, "ssh-ran")
        fake_ssh = os.path.join(self.box.dir, "fake-ssh")
        write_script(fake_ssh, f"#!/bin/sh\ntouch '{marker}'\n")
        for url, why in (("ssh://-oProxyCommand=touch%20x/dir", "cannot start with '-'"),
                         ("ssh://host/~/project", "must be an absolute path"),
                         ("ssh://host/dir\nrm", "control character (0x0a)"),
                         ("ssh://host", "no folder after the host")):
            r = self.rio_cli("-p", "task", url=url, env={"RIO_SSH": fake_ssh})
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertIn(why, r.stderr)
            self.assertFalse(os.path.exists(marker), url)
        # A local folder beside an ssh:// address is a mistake, said as one.
        r = self.rio_cli("-p", "task", self.project, env={"RIO_SSH": fake_ssh})
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("the project is the folder in the address", r.stderr)
        self.assertFalse(os.path.exists(marker))


RIO_ACP = os.path.join(os.path.dirname(RIO_CLI), "rio-acp")


class AcpRemoteTest(SshCase):
    """rio-acp --connect ssh://…: each ACP session's core on the far machine."""

    def acp(self, env):
        process = subprocess.Popen(
            [RIO_ACP, "--provider", "script:" + self.box.script, "--connect",
             self.sshd.url(self.project)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, env={**self.env, **env})
        self.addCleanup(lambda: (process.kill(), process.wait(), process.stdout.close(),
                                 process.stderr.close(), process.stdin.close()))
        return process

    @staticmethod
    def call(process, id, method, params, seen=None):
        process.stdin.write(json.dumps({"jsonrpc": "2.0", "id": id, "method": method,
                                        "params": params}) + "\n")
        process.stdin.flush()
        for line in process.stdout:
            message = json.loads(line)
            if message.get("id") == id and "method" not in message:
                return message
            if seen is not None:
                seen.append(message)
        raise AssertionError("rio-acp ended: " + process.stderr.read())

    def test_an_acp_session_runs_its_core_on_the_far_side(self):
        self.box.rescript([{"text": "Hello from the far side."}])
        acp = self.acp({"RIO_REMOTE_CORE": self.far_core})
        self.assertIn("result", self.call(acp, 1, "initialize", {"protocolVersion": 1}))
        # The editor's cwd is a local path; the far folder is the address's.
        opened = self.call(acp, 2, "session/new", {"cwd": "/no/such/local/folder",
                                                   "mcpServers": []})
        self.assertIn("result", opened, opened)
        seen = []
        answer = self.call(acp, 3, "session/prompt", {
            "sessionId": opened["result"]["sessionId"],
            "prompt": [{"type": "text", "text": "say hello"}]}, seen)
        self.assertEqual(answer["result"]["stopReason"], "end_turn", answer)
        said = "".join(m["params"]["update"]["content"]["text"] for m in seen
                       if m.get("method") == "session/update" and
                       m["params"]["update"]["sessionUpdate"] == "agent_message_chunk")
        self.assertEqual(said, "Hello from the far side.")
        # The session was saved by the far core, under the far project.
        self.assertEqual(self.box.calls()[0]["conversation"][0]["text"], "say hello")

    def test_an_acp_session_without_a_far_core_says_why(self):
        acp = self.acp({"RIO_REMOTE_CORE": "rio-core-not-installed"})
        self.call(acp, 1, "initialize", {"protocolVersion": 1})
        failed = self.call(acp, 2, "session/new", {"cwd": "/", "mcpServers": []})
        self.assertIn("rio-core-not-installed not found on 127.0.0.1; install rio there or "
                      "set RIO_REMOTE_CORE", failed["error"]["message"])

    def test_an_acp_session_says_why_a_login_or_a_host_key_was_refused(self):
        for key, known_hosts, expected in (
                ("stranger_key", "known_hosts", "127.0.0.1 refused the login"),
                ("user_key", "empty_known_hosts", "127.0.0.1's host key is not known here")):
            acp = self.acp({"RIO_REMOTE_CORE": self.far_core,
                            "RIO_SSH": self.sshd.ssh_command(key, known_hosts)})
            self.call(acp, 1, "initialize", {"protocolVersion": 1})
            failed = self.call(acp, 2, "session/new", {"cwd": "/", "mcpServers": []})
            self.assertIn(expected, failed["error"]["message"])


if __name__ == "__main__":
    unittest.main()
