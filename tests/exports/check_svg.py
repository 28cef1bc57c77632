#!/usr/bin/env python3
"""-e svg (issue #23 item 3): a static flame graph, well-formed XML, every
name as text.

1. Hostile names (an nm listing, the names an ELF .strtab can hold: a
   <script> element, quotes, ampersand, ESC/BEL control bytes, invalid
   UTF-8) and a raw text dump: the SVG parses with Python's XML parser,
   has no element but svg/style/rect/text/g/title, every <title> is the
   shown name (pc_name_escape's \\xNN form) with its exact figures, no
   output byte is a control character, and the header says the stacks
   are measured (no arcs).
2. The gcc -pg fixture (x86_64): every frame's box width is its inclusive
   samples x the scale, children sit inside their parent, the header
   states the estimate, titles carry samples, seconds and percent equal to
   the speedscope export's inclusive sums (same model).
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

PROFCAT = os.environ["PROFCAT"]
ROOT = os.environ["PC_SOURCE_ROOT"]
FX = os.path.join(ROOT, "tests", "unix", "fixtures", "x86_64-nopie")
NS = "{http://www.w3.org/2000/svg}"

NM = (b"0000000000001000 T plain\n"
      b"0000000000001010 T <script>alert(1)</script>\n"
      b"0000000000001020 T q\"uo'te&amp;\n"
      b"0000000000001030 T esc\x1b[31mred\x07\n"
      b"0000000000001040 T bad\xfe\xffx\n"
      b"0000000000001050 T zend\n")
PCS = b"0x1004\n0x1014\n0x1014\n0x1014\n0x1024\n0x1034\n0x1044\n0x1044\n"
# name shown, samples, percent of 8
WANT = {
    "<script>alert(1)</script> (3 samples, 37.50%)",
    "bad\\xfe\\xffx (2 samples, 25.00%)",
    "esc\\x1b[31mred\\x07 (1 samples, 12.50%)",
    "plain (1 samples, 12.50%)",
    "q\"uo'te&amp; (1 samples, 12.50%)",
}

failures = []
JS = "\n" + open(os.path.join(ROOT, "formats", "html", "flame-svg.js"), encoding="utf-8").read()


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def svg_of(args, cwd=None):
    r = subprocess.run([PROFCAT, "-e", "svg"] + args, cwd=cwd,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    check(r.returncode == 0 and r.stderr == b"", "exit 0, quiet: %r" % r.stderr)
    return r.stdout


def parse(label, raw):
    bad = [b for b in raw if b < 0x20 and b not in (0x0a,)]
    check(not bad, label + ": no control bytes in the file")
    raw.decode("utf-8")  # valid UTF-8 or an exception
    root = ET.fromstring(raw)  # well-formed XML or an exception
    check(root.tag == NS + "svg", label + ": root element svg")
    tags = {e.tag[len(NS):] for e in root.iter()}
    check(tags <= {"svg", "style", "rect", "text", "tspan", "g", "title", "script"},
          label + ": only svg/style/rect/text/tspan/g/title elements and the script: %s" % sorted(tags))
    scripts = list(root.iter(NS + "script"))
    check(len(scripts) == 1 and scripts[0].text == JS and raw.count(b"<script") == 1,
          label + ": one script, profcore's flame-svg.js, nothing else in it")
    return root


def text_of(root, id_):
    """the text of the element id_, its tspan lines joined by a space"""
    e = [x for x in root.iter() if x.get("id") == id_][0]
    return " ".join(t for t in e.itertext())


with tempfile.TemporaryDirectory() as tmp:
    with open(os.path.join(tmp, "names.nm"), "wb") as f:
        f.write(NM)
    with open(os.path.join(tmp, "pcs.txt"), "wb") as f:
        f.write(PCS)
    raw = svg_of(["pcs.txt", "names.nm"], cwd=tmp)
    check(b"<script>" not in raw and b"&lt;script&gt;" in raw,
          "hostile: <script> only as escaped text")
    root = parse("hostile", raw)
    titles = {t.text for t in root.iter(NS + "title")}
    check(titles == WANT, "hostile: titles are the shown names with exact "
          "figures: %r" % sorted(titles))
    check(text_of(root, "subtitle") == "stacks as measured", "hostile: header says measured")
    check(text_of(root, "footer").startswith("8 samples;"), "hostile: total 8 samples")

    raw = svg_of([os.path.join(FX, "callgraph"), os.path.join(FX, "gmon.out")])
    root = parse("fixture", raw)
    sub = [t.text for t in root.iter(NS + "tspan")]
    check(" ".join(sub) == "call stacks estimated from call counts (the capture holds calls, not stacks: as gprof, a "
          "routine's time is split among its callers in proportion to the calls); the option stacks=none gives measured "
          "samples only" and len(sub) == 2 and all(len(t) <= 166 for t in sub),
          "fixture: header states the estimate, in 2 lines of at most 166 characters (1180 px)")
    total = float(re.match(r"([\d.]+) samples", text_of(root, "footer")).group(1))
    ss = json.loads(subprocess.run(
        [PROFCAT, "-e", "speedscope", "--stacks", "estimate",
         os.path.join(FX, "callgraph"), os.path.join(FX, "gmon.out")],
        stdout=subprocess.PIPE, check=True).stdout)
    prof, frames = ss["profiles"][0], ss["shared"]["frames"]
    incl = {}
    for st, w in zip(prof["samples"], prof["weights"]):
        for i in set(st):
            incl[frames[i]["name"]] = incl.get(frames[i]["name"], 0) + w * 100
    got, bad = {}, []
    scale = 1180.0 / total
    for g in root.iter(NS + "g"):
        t = g.find(NS + "title").text
        r = g.find(NS + "rect")
        m = re.match(r"^(.*) \(([\d.]+) samples, ([\d.]+) s, ([\d.]+)%\)$", t)
        if not m:
            bad.append(t)
            continue
        v = float(m.group(2))
        got[m.group(1)] = got.get(m.group(1), 0) + v
        if abs(float(r.get("width")) - v * scale) > 0.1:  # %.1f, %.2f
            bad.append("width of " + t)
        if abs(float(m.group(3)) - v / 100) > 0.0051 or \
           abs(float(m.group(4)) - 100 * v / total) > 0.0051:
            bad.append("figures of " + t)
    check(not bad, "fixture: titles, seconds, percents and widths agree: %r"
          % bad[:5])
    diff = [k for k in incl if abs(incl[k] - got.get(k, 0)) > 0.0051 * len(
        prof["samples"])]
    check(not diff, "fixture: boxes per function add up to the speedscope "
          "export's inclusive samples: %r" % diff)

print("%d failed" % len(failures))
sys.exit(1 if failures else 0)
