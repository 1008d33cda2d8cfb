#!/usr/bin/env python3
"""rio-cli's shell completions (packaging/completions) against `rio-cli --help`: every
option it lists is completed by bash, zsh and fish, with the values it accepts; bash and
fish are asked for real completions, zsh's file is checked for syntax.

  completions_test.py RIO_CLI SOURCE_DIR
"""
import os
import re
import subprocess
import sys
import tempfile

RIO_CLI, SOURCE = sys.argv[1:3]
DIR = os.path.join(SOURCE, "packaging", "completions")
BASH, ZSH, FISH = (os.path.join(DIR, f) for f in ("rio-cli.bash", "_rio-cli", "rio-cli.fish"))
failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)


def options_of_help():
    """{option: [values]} from the option column of rio-cli --help."""
    text = subprocess.run([RIO_CLI, "--help"], capture_output=True, text=True).stdout
    options = {}
    for line in text.splitlines():
        m = re.match(r"\s+(-[\w,-]+)(?:\s+\w+(?::\{([^}]*)\})?)?", line)
        if not m:
            continue
        values = m.group(2).split(",") if m.group(2) else []
        for name in m.group(1).split(","):
            options[name] = values
    return options


def bash_complete(words):
    line = " ".join(words)
    script = (f"source /usr/share/bash-completion/bash_completion; source {BASH}; "
              f"COMP_LINE='{line}'; COMP_POINT=${{#COMP_LINE}}; "
              f"COMP_WORDS=({' '.join(repr(w) for w in words)}); "
              f"COMP_CWORD=$((${{#COMP_WORDS[@]}} - 1)); _rio_cli; printf '%s\\n' \"${{COMPREPLY[@]}}\"")
    r = subprocess.run(["bash", "-c", script], capture_output=True, text=True)
    return sorted(filter(None, r.stdout.splitlines()))


def fish_complete(line, cwd=None):
    r = subprocess.run(["fish", "--no-config", "-c", f"source {FISH}; complete -C'{line}'"],
                       capture_output=True, text=True, cwd=cwd)
    return sorted(entry.split("\t")[0] for entry in r.stdout.splitlines())


options = options_of_help()
check(len(options) >= 14, f"rio-cli --help lists its options: {sorted(options)}")
with open(BASH) as f:
    bash = f.read()
with open(ZSH) as f:
    zsh = f.read()
with open(FISH) as f:
    fish = f.read()
for name, values in options.items():
    short = not name.startswith("--")
    fish_form = f"-s {name[1:]}" if short else f"-l {name[2:]}"
    check(name in bash, f"bash completes {name}")
    check(name in zsh, f"zsh completes {name}")
    check(fish_form in fish, f"fish completes {name}")
    if values and not short:
        check(bash_complete(["rio-cli", name, ""]) == sorted(values),
              f"bash offers {values} after {name}")
        check(fish_complete(f"rio-cli {name} ") == sorted(values),
              f"fish offers {values} after {name}")

check(bash_complete(["rio-cli", "--outp"]) == ["--output", "--output-format"],
      "bash completes --outp to --output and --output-format")
check("script:" in bash_complete(["rio-cli", "--provider", ""]), "bash offers script:")
with tempfile.TemporaryDirectory() as d:
    open(os.path.join(d, "steps.json"), "w").close()
    check(fish_complete("rio-cli --provider script:st", cwd=d) == ["script:steps.json"],
          "fish completes script:FILE")
for shell, path in (("bash", BASH), ("zsh", ZSH), ("fish", FISH)):
    r = subprocess.run([shell, "-n", path], capture_output=True, text=True)
    check(r.returncode == 0, f"{shell} -n {os.path.basename(path)} {r.stderr.strip()}")

print(f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
