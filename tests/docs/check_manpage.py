#!/usr/bin/env python3
"""profcat(1) (cli/profcat.1) and docs/usage.md against the program.

- every option that `profcat --help` (and `profcat diff|merge|rates
  --help`) lists has a tagged entry (.TP/.TQ) in the man page, with its
  short letter beside its long name, and every option a tag names is one
  the program takes: the two lists cannot drift apart;
- the exit statuses of the man page, of --help and of docs/usage.md are
  the same list;
- what the man page says of symbol files without a capture is what
  profcat does (exit 0 and a warning).
"""
import os
import re
import subprocess
import sys

SOURCE = os.environ["PC_SOURCE_ROOT"]
PROFCAT = os.environ["PROFCAT"]
OPT = re.compile(r"(?<![\w-])(--[a-z][a-z-]*[a-z]|-[A-Za-z])(?![\w-])")


def run(*args):
    r = subprocess.run([PROFCAT] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True,
                       cwd=SOURCE, env=dict(os.environ, LC_ALL="C"))
    return r.returncode, r.stdout, r.stderr


def plain(roff):
    """A roff line as text: no macro name, font changes, quotes, escapes."""
    roff = re.sub(r"^\.[A-Z]+\s*", "", roff)
    roff = re.sub(r"\\f[BIRP]", "", roff).replace("\\-", "-")
    return roff.replace('"', "").replace("\\&", "")


def man_sections(text):
    """{section name: its lines}"""
    out, name = {}, None
    for line in text.split("\n"):
        if line.startswith(".SH "):
            name = line[4:].strip().strip('"')
            out[name] = []
        elif name:
            out[name].append(line)
    return out


def tags(lines):
    """The tag line of each .TP/.TQ entry, as text."""
    return [plain(lines[i + 1]) for i, l in enumerate(lines[:-1])
            if l.startswith((".TP", ".TQ"))]


def help_options(text):
    """{option: its other spelling or None} of a --help text."""
    out = {}
    for line in text.split("\n"):
        m = re.match(r"  (?:(-[A-Za-z]), )?\s*(--[a-z][a-z-]*)", line)
        if m:
            out[m.group(2)] = m.group(1)
    return out


def main():
    if os.environ.get("PC_CROSS_LEG"):
        print("SKIP: the man page is checked on the native build")
        return 77
    with open(os.path.join(SOURCE, "cli", "profcat.1"), encoding="utf-8") as f:
        sections = man_sections(f.read())
    failures = []

    # the options: --help of profcat and of each command
    status, usage, _ = run("--help")
    assert status == 0
    helped = help_options(usage)
    for cmd in ("diff", "merge", "rates"):
        status, text, _ = run(cmd, "--help")
        assert status == 0, cmd
        helped.update(help_options(text))
    entries = tags(sections["OPTIONS"]) + tags(sections["COMMANDS"])
    documented = set()
    for tag in entries:
        documented.update(OPT.findall(tag))
    for opt, short in sorted(helped.items()):
        if opt not in documented:
            failures.append("%s (in --help) has no entry in profcat(1)" % opt)
        elif short and not any(short in OPT.findall(t) and opt in
                               OPT.findall(t) for t in entries):
            failures.append("profcat(1) does not give %s beside %s"
                            % (short, opt))
    known = set(helped) | {s for s in helped.values() if s}
    for opt in sorted(documented - known):
        failures.append("profcat(1) has an entry for %s, which profcat "
                        "--help does not list" % opt)

    # the exit statuses
    man_codes = [t.strip() for t in tags(sections["EXIT STATUS"])]
    help_codes = re.findall(r"(\d) [a-zA-Z]", usage.split("Exit status:")[1]
                            .split("\n\n")[0].split("Plugins:")[0])
    with open(os.path.join(SOURCE, "docs", "usage.md"), encoding="utf-8") as f:
        usage_md = f.read()
    md_codes = re.findall(r"\*\*(\d)\*\*",
                          usage_md.split("Exit status:")[1].split("\n\n")[0])
    if not man_codes == help_codes == md_codes:
        failures.append("exit statuses differ: profcat(1) %s, --help %s, "
                        "docs/usage.md %s" % (man_codes, help_codes,
                                              md_codes))

    # symbol files without a capture
    prog = "tests/unix/fixtures/x86_64-nopie/callgraph"
    got = run(prog)
    want = (0, "profcat: warning: no capture given (%s: symbols only), so "
            "the report is empty: give the capture too (e.g. profcat prog "
            "gmon.out)\n" % prog)
    if (got[0], got[2]) != want:
        failures.append("profcat PROG: exit %d, %r; expected %r"
                        % (got[0], got[2], want))
    said = " ".join(plain(l) for l in sections["DESCRIPTION"])
    claim = ("Symbol files given without any capture (samples or call arcs) "
             "print the empty report and a warning on standard error; the "
             "exit status is 0")
    if claim not in said:
        failures.append("profcat(1) DESCRIPTION does not say: " + claim)

    for f in failures:
        print(f)
    if failures:
        return 1
    print("profcat(1): %d options as in --help, exit statuses %s"
          % (len(helped), " ".join(man_codes)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
