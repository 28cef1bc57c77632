#!/usr/bin/env python3
"""The HTML report in a real browser (issue #23 item 2).

profcat writes the page (-F html, -r html, diff -F html); headless
Chromium (tests/html/cdp.py: the DevTools protocol over a pipe, network
switched off) loads it from disk, and the test reads the DOM:

 - header lines equal the text report's; no console error; the page's
   completion marker data-pc-ready is "ok";
 - every row and number of the CSV report is in the flat table (exact
   values in data-v, shown text at its precision); the zero-hit toggle
   adds exactly the rows of --zero;
 - sorting by a column and filtering (substring, regex, bad regex) change
   the rows as expected;
 - the flame view: every drawn frame's width is its inclusive value
   scaled to the canvas, and each function's inclusive time equals
   gprof -q's (tests/unix/fixtures/x86_64-nopie/gprof-q.txt; functions in
   a cycle are left to the call-path model's own tests); clicking a
   frame zooms to it and fills the caller/callee tables;
 - hostile names (<script>, quotes, control bytes) render as text;
 - diff -F html: rows, intervals, MDE, verdicts and significance marks
   equal diff -F csv; only the rows whose adjusted p is below the level
   are coloured (red slower, blue faster), as are the icicle's frames;
   hostile names stay text in the diff page too;
 - source: the lines of -r source -F json.

Screenshots of each view go to BUILD/tests/html/ (not committed).
Skips (77) when chromium is not installed.
"""
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402

PROFCAT = os.environ["PROFCAT"]
SRC = os.environ.get("PC_SOURCE_ROOT", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
OUT = os.path.join(os.environ.get("PC_BUILD_ROOT", tempfile.gettempdir()), "tests", "html")
UNIX = os.path.join(SRC, "tests", "unix", "fixtures", "x86_64-nopie")
STATS = os.path.join(SRC, "tests", "stats", "fixtures")
SOURCE = os.path.join(SRC, "tests", "source", "fixtures")

failures = []


def check(cond, what):
    if cond:
        print("ok   " + what)
    else:
        print("FAIL " + what)
        failures.append(what)
    return cond


def profcat(*args, cwd=None):
    r = subprocess.run([PROFCAT] + list(args), cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode != 0 or r.stderr:
        raise SystemExit("profcat %s: exit %d: %s" % (" ".join(args), r.returncode, r.stderr.decode(errors="replace")))
    return r.stdout


def url(path, hash_=""):
    return "file://" + os.path.abspath(path) + hash_


def static_checks(label, data):
    """The file itself: UTF-8 without control bytes, no reference to
    anything outside it, exactly the two script elements we wrote."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        check(False, "%s: page is UTF-8 (%s)" % (label, e))
        return
    bad = [c for c in text if (ord(c) < 0x20 and c not in "\n\t") or 0x7f <= ord(c) < 0xa0]
    check(not bad, "%s: no control characters in the page (found %r)" % (label, bad[:3]))
    low = text.lower()
    # a profile's data in two elements (the first view's before the code,
    # the rest after it), a diff's in one before the code
    want = ['<script type="application/json" id="pc-data">', "<script>"]
    if label != "diff":
        want.append('<script type="application/gzip" data-encoding="base64" id="pc-data-rest">')
        want.append('<script type="application/gzip" data-encoding="base64" id="pc-data-src">')
    check(re.findall(r"<script[^>]*>", low) == want and low.count("</script") == len(want),
          "%s: exactly the script elements %s" % (label, ", ".join(want)))
    check(not re.search(r"\b(src|href|url)\s*[=(]", low) and "http:" not in low and "https:" not in low,
          "%s: nothing loaded from outside the file" % label)
    check("default-src 'none'" in text, "%s: Content-Security-Policy forbids the network" % label)


JS_ROWS = """(() => { const t = document.getElementById(%r);
  const cols = [...t.tHead.rows[0].cells].map(th => th.dataset.col);
  return [...t.tBodies[0].rows].filter(r => !r.classList.contains('spacer')).map(r => {
    const o = {}; [...r.cells].forEach((td, i) => { o[cols[i]] = [td.textContent, td.dataset.v === undefined ? null : td.dataset.v,
      td.className]; }); o._cls = r.className; return o; }); })()"""


def rows(page, table):
    return page.eval(JS_ROWS % table)


def set_input(page, id_, value=None, checked=None):
    if checked is not None:
        page.eval("(() => { const e = document.getElementById(%r); e.checked = %s; e.dispatchEvent(new Event('change')); })()"
                  % (id_, "true" if checked else "false"))
    else:
        page.eval("(() => { const e = document.getElementById(%r); e.value = %s; e.dispatchEvent(new Event('input')); })()"
                  % (id_, json.dumps(value)))
    page.settle()


def click(page, selector):
    page.eval("document.querySelector(%s).click()" % json.dumps(selector))
    page.settle()


def num_eq(a, b):
    return abs(float(a) - float(b)) <= 1e-9 * max(1.0, abs(float(b)))


def csv_rows(text):
    return [r for r in csv.DictReader(io.StringIO(text)) if r["rank"]]


def compare_flat(label, got, want, rate):
    check(len(got) == len(want), "%s: %d table rows = %d CSV rows" % (label, len(got), len(want)))
    byrank = {g["rank"][0]: g for g in got}
    for w in want:
        g = byrank.get(w["rank"])
        if not check(g is not None, "%s: row %s (%s) present" % (label, w["rank"], w["symbol"])):
            continue
        ok = g["symbol"][0] == w["symbol"]
        ok &= num_eq(g["count"][1], w["count"]) and num_eq(g["percent"][1], w["percent"])
        ok &= num_eq(g["cum_percent"][1], w["cum_percent"])
        ok &= g["percent"][0] == "%.2f" % float(w["percent"])
        if rate:  # the page divides count by the rate; the CSV rounds it to 6 decimals
            ok &= abs(float(g["self_seconds"][1]) - float(w["self_seconds"])) <= 5e-7
            ok &= g["self_seconds"][0] == "%.2f" % float(w["self_seconds"])
        if "calls" in g:
            want_calls = w["calls"] + ("+" + w["self_calls"] if w["self_calls"] not in ("", "0") else "")
            ok &= g["calls"][0] == want_calls
        ok &= g["address"][0] == w["address"]
        check(ok, "%s: row %s %s: every number equals the CSV's (%r)" % (label, w["rank"], w["symbol"], g))


def gprof_inclusive(path):
    """{name: self+children seconds} of gprof -q's primary lines, names in
    a cycle left out."""
    out = {}
    for line in open(path, encoding="utf-8"):
        m = re.match(r"^\[\d+\]\s+[\d.]+\s+([\d.]+)\s+([\d.]+)\s+\S+\s+(.*?)\s+\[\d+\]$", line)
        if m and "<cycle" not in m.group(3):
            out[m.group(3)] = float(m.group(1)) + float(m.group(2))
    return out


JS_FLAME = """(() => { const l = document.getElementById('flame-nodes');
  return {W: +l.dataset.width, total: +l.dataset.total, nodes: [...l.children].map(li => ({name: li.textContent,
    depth: +li.dataset.depth, x: +li.dataset.x, w: +li.dataset.w, v: +li.dataset.v}))}; })()"""


def flame_inclusive(nodes):
    """Per function, the summed width of its outermost frames."""
    inc, stack = {}, []
    for n in nodes:
        del stack[n["depth"]:]
        if n["name"] not in stack:
            inc[n["name"]] = inc.get(n["name"], 0) + n["v"]
        stack.append(n["name"])
    return inc


def case_gmon(b, tmp):
    label = "gmon"
    page_file = os.path.join(tmp, "report.html")
    profcat("-F", "html", "-o", page_file, "callgraph", "gmon.out", cwd=UNIX)
    data = open(page_file, "rb").read()
    check(profcat("-r", "html", "callgraph", "gmon.out", cwd=UNIX) == data, "gmon: -r html writes the same page as -F html")
    static_checks(label, data)
    text = profcat("callgraph", "gmon.out", cwd=UNIX).decode().splitlines()
    want = csv_rows(profcat("-F", "csv", "callgraph", "gmon.out", cwd=UNIX).decode())
    want_zero = csv_rows(profcat("-F", "csv", "--zero", "callgraph", "gmon.out", cwd=UNIX).decode())

    p = b.open(url(page_file))
    check(p.eval("document.documentElement.dataset.pcReady") == "ok", "gmon: page ready without error")
    check(p.eval("document.getElementById('samples').textContent") == text[1], "gmon: samples line = text report's")
    check(p.eval("document.getElementById('rate').textContent") == text[2], "gmon: rate line = text report's")
    got = rows(p, "flat-table")
    compare_flat(label, got, want, True)
    check(all(g["ci"][0] and "\u2013" in g["ci"][0] for g in got), "gmon: each row shows its 95% interval")
    check(p.eval("document.querySelectorAll('#flat-table .cib .e').length") == len(want), "gmon: an error bar per row")
    p.screenshot(os.path.join(OUT, "html-flat.png"))

    set_input(p, "flat-zero", checked=True)
    compare_flat(label + " --zero", rows(p, "flat-table"), want_zero, True)
    check(p.eval("document.getElementById('flat-count').textContent") == "%d of %d rows" % (len(want_zero), len(want_zero)),
          "gmon: row counter with zero-hit rows")
    set_input(p, "flat-zero", checked=False)

    # sorting
    names = [w["symbol"] for w in want]
    click(p, "#flat-table th[data-col=symbol]")
    check([g["symbol"][0] for g in rows(p, "flat-table")] == sorted(names, key=lambda s: s.lower()),
          "gmon: sort by symbol (ascending)")
    click(p, "#flat-table th[data-col=symbol]")
    check([g["symbol"][0] for g in rows(p, "flat-table")] == sorted(names, key=lambda s: s.lower(), reverse=True),
          "gmon: second click reverses")
    click(p, "#flat-table th[data-col=calls]")
    calls = [int(g["calls"][0].split("+")[0]) + int((g["calls"][0] + "+0").split("+")[1]) for g in rows(p, "flat-table")]
    check(calls == sorted(calls, reverse=True) and calls[0] == 24000000, "gmon: sort by calls (descending)")
    click(p, "#flat-table th[data-col=count]")
    counts = [float(g["count"][1]) for g in rows(p, "flat-table")]
    check(counts == sorted((float(w["count"]) for w in want), reverse=True), "gmon: sort by count (descending)")
    click(p, "#flat-table th[data-col=count]")
    counts = [float(g["count"][1]) for g in rows(p, "flat-table")]
    check(counts == sorted(float(w["count"]) for w in want), "gmon: sort by count (ascending)")
    check(p.eval("document.querySelector('#flat-table th[data-col=count]').getAttribute('aria-sort')") == "ascending",
          "gmon: sorted column marked")
    check(p.eval("document.querySelector('#flat-table th[data-col=cum_percent]').textContent") == "sum%", "gmon: cum % named sum% (pprof)")
    cg = json.loads(profcat("-r", "callgraph", "-F", "json", "callgraph", "gmon.out", cwd=UNIX))
    incl = {e["name"]: (e["self"] + e["children"]) * 100 for e in cg["entries"] if not e["cycle"]}
    got = {g["symbol"][0]: float(g["inclusive"][1]) for g in rows(p, "flat-table") if g["inclusive"][1] is not None}
    check(set(got) == {w["symbol"] for w in want if w["symbol"] in incl} and all(abs(got[k] - incl[k]) < 2e-4 for k in got),
          "gmon: the inclusive column = the call graph report's self + children (%d rows)" % len(got))

    # filtering
    set_input(p, "flat-filter", "TINY_")
    check(sorted(g["symbol"][0] for g in rows(p, "flat-table")) == ["tiny_a", "tiny_b", "tiny_c"],
          "gmon: substring filter (case-insensitive)")
    set_input(p, "flat-regex", checked=True)
    check(rows(p, "flat-table") == [], "gmon: the same text as a regex is case-sensitive")
    set_input(p, "flat-filter", "^is_(odd|even)$")
    check(sorted(g["symbol"][0] for g in rows(p, "flat-table")) == ["is_even", "is_odd"], "gmon: regex filter")
    set_input(p, "flat-filter", "(")
    check(p.eval("document.getElementById('flat-filter').classList.contains('bad')") and len(rows(p, "flat-table")) == len(want),
          "gmon: a bad regex is marked and filters nothing")
    set_input(p, "flat-filter", "")
    set_input(p, "flat-regex", checked=False)
    check(len(rows(p, "flat-table")) == len(want), "gmon: cleared filter shows every row again")

    # regions
    click(p, "#tab-regions")
    reg = json.loads(profcat("-r", "regions", "-F", "json", "callgraph", "gmon.out", cwd=UNIX))
    got_reg = p.eval("[...document.querySelectorAll('#regions-chart .row')].map(r => [r.dataset.region, +r.children[1].dataset.v, +r.children[2].dataset.v])")
    check(got_reg == [[r["region"], r["samples"], r["percent"]] for r in reg["regions"]], "gmon: region chart = -r regions")
    p.screenshot(os.path.join(OUT, "html-regions.png"))

    # flame
    click(p, "#tab-flame")
    f = p.eval(JS_FLAME)
    W, total = f["W"], f["total"]
    check(W > 0 and all(abs(n["w"] - n["v"] / total * W) < 1e-6 * W for n in f["nodes"]),
          "gmon: every frame's width is its inclusive value (%d frames)" % len(f["nodes"]))
    inc = flame_inclusive(f["nodes"])
    gq = gprof_inclusive(os.path.join(UNIX, "gprof-q.txt"))
    for name, secs in sorted(gq.items()):
        if secs == 0 and name not in inc:
            continue
        check(name in inc and abs(inc[name] / 100.0 - secs) <= 0.011,
              "gmon: flame inclusive of %s %.4f s = gprof -q %.2f s" % (name, inc.get(name, -1) / 100.0, secs))
    check("estimate" in p.eval("document.getElementById('flame-estimate').textContent"), "gmon: estimate label shown")
    p.screenshot(os.path.join(OUT, "html-flame.png"))
    hot = [n for n in f["nodes"] if n["name"] == "hot"][0]
    p.eval("""(() => { const c = document.getElementById('flame'), r = c.getBoundingClientRect();
      c.dispatchEvent(new MouseEvent('click', {clientX: r.left + %f, clientY: r.top + %f, bubbles: true})); })()"""
           % (hot["x"] + hot["w"] / 2, hot["depth"] * 18 + 9))
    p.settle()
    f2 = p.eval(JS_FLAME)
    zoomed = [n for n in f2["nodes"] if n["name"] == "hot"]
    check(zoomed and abs(zoomed[0]["w"] - f2["W"]) < 1e-6 and f2["total"] == hot["v"], "gmon: click zooms to the frame")
    check(p.eval("document.getElementById('calls-title').textContent") == "[2] hot", "gmon: click selects the function")
    check(p.eval("[...document.querySelectorAll('#callers tbody tr')].map(r => r.cells[0].textContent + ' ' + r.cells[1].textContent)")
          == ["main 1/1"], "gmon: callers table (call graph report)")
    click(p, "#flame-reset")
    p.eval("[...document.querySelectorAll('#flat-table tbody tr')].find(r => r.cells[1] && r.cells[1].textContent === 'tinies').click()")
    p.settle()
    check(p.eval("[...document.querySelectorAll('#callees tbody tr')].map(r => r.cells[0].textContent + ' ' + r.cells[1].textContent)")
          == ["tiny_b 24000000/24000000", "tiny_a 24000000/24000000", "tiny_c 24000000/24000000"],
          "gmon: a flat row selects the function (callees table)")
    set_input(p, "flame-search", "tiny_")
    tiny = sum(n["v"] for n in f["nodes"] if n["name"].startswith("tiny_"))
    check(p.eval("document.getElementById('flame-matched').textContent") == "matched: %.2f%% of all" % (100 * tiny / total),
          "gmon: search highlight sums the matching frames")
    p.screenshot(os.path.join(OUT, "html-callgraph.png"))
    check(p.console == [], "gmon: no console errors %r" % p.console)


JS_TREE = """[...document.querySelectorAll('#%s tbody tr')].filter(r => !r.classList.contains('spacer'))
  .map(r => [r.cells[0].querySelector('.fn').textContent, +r.cells[1].dataset.v, parseInt(r.cells[0].style.paddingLeft) > 4 ? 1 : 0])"""
JS_NODES = """[...document.getElementById('flame-nodes').children].map(li => [li.textContent, +li.dataset.depth, +li.dataset.v])"""


def same_nodes(a, b):
    a, b = sorted(a), sorted(b)
    return len(a) == len(b) and all(x[0] == y[0] and x[1] == y[1] and abs(x[2] - y[2]) <= 1e-6 * max(1, y[2]) for x, y in zip(a, b))


def case_trees(b, tmp):
    """Call trees (top-down, inverted, sandwich) against the call graph
    report; the transforms against the CLI's --focus/--ignore/--hide;
    the state in the URL fragment."""
    import urllib.parse
    base = ["callgraph", "gmon.out"]
    page_file = os.path.join(tmp, "trees.html")
    profcat("-F", "html", "-o", page_file, *base, cwd=UNIX)
    cg = json.loads(profcat("-r", "callgraph", "-F", "json", *base, cwd=UNIX))
    rate = 100.0
    inclusive = {e["name"]: (e["self"] + e["children"]) * rate for e in cg["entries"] if not e["cycle"] and e["name"]}
    flat = {w["symbol"]: float(w["count"]) for w in csv_rows(profcat("-F", "csv", *base, cwd=UNIX).decode())}
    p = b.open(url(page_file, "#view=tree"))
    check(p.eval("document.getElementById('tree-stacks').dataset.stacks") == "estimated", "trees: gmon arcs: stacks said to be estimated")
    check(p.eval("[...document.querySelectorAll('#tree-table th')].map(t => t.textContent)")
          == ["function", "total", "total %", "self", "self %", "self 95% interval"],
          "trees: estimated stacks: self has an interval, the totals none")
    unroll(p, "tree-table")
    click(p, "#tree-expand")
    top = p.eval(JS_TREE % "tree-table")
    check([t for t in top if t[2] == 0] == [["main", top[0][1], 0]] and abs(top[0][1] - cg["seconds"] * rate) < 1e-3,
          "trees: top-down: one root, main, with every sample of the call paths (%.4f)" % top[0][1])
    click(p, "#tree-mode-inverted")
    inv = {t[0]: t[1] for t in p.eval(JS_TREE % "tree-table") if t[2] == 0}
    check(all(abs(inv.get(k, 0) - v) < 1e-3 for k, v in flat.items() if v > 0) and all(k in flat for k in inv),
          "trees: inverted: each root's total = its self count in the flat report (%d functions)" % len(inv))
    click(p, "#tree-mode-top")
    click(p, "#tree-expand")
    n = 0
    for name, want in sorted(inclusive.items()):
        ok = p.eval("""(() => { const r = [...document.querySelectorAll('#tree-table tbody tr')].find(r => r.cells[0] && r.cells[0].querySelector('.fn')
          && r.cells[0].querySelector('.fn').textContent === %s); if (!r) return false; r.click(); return true; })()""" % json.dumps(name))
        if not ok:
            check(want == 0, "trees: %s (%.4f samples) is in the top-down tree" % (name, want))
            continue
        p.settle()
        click(p, "#tree-mode-sandwich")
        got = p.eval(JS_TREE % "tree-callers")
        check(got and got[0][0] == name and abs(got[0][1] - want) < 2e-4,
              "trees: sandwich of %s: total %.4f = the call graph report's self+children %.4f" % (name, got[0][1] if got else -1, want))
        n += 1
        click(p, "#tree-mode-top")
        click(p, "#tree-expand")
    check(n == 6, "trees: %d functions checked against the call graph report" % n)
    p.screenshot(os.path.join(OUT, "html-tree.png"))

    # transforms = the CLI's filters (the icicle's frames)
    for key, val in (("focus", "tiny"), ("ignore", "tiny_a"), ("hide", "tinies"), ("hide", "^main$"), ("focus", "^hot$")):
        cli = os.path.join(tmp, "cli-%s.html" % key)
        profcat("-F", "html", "--" + key, val, "-o", cli, *base, cwd=UNIX)
        q = b.open(url(cli, "#flame"))
        want = q.eval(JS_NODES)
        q2 = b.open(url(page_file, "#view=flame&%s=%s" % (key, urllib.parse.quote(val))))
        got = q2.eval(JS_NODES)
        check(same_nodes(got, want), "transforms: %s %s in the page = profcat --%s %s (%d frames)" % (key, val, key, val, len(want)))
    # through the controls, then the URL fragment reopens it
    q = b.open(url(page_file, "#flame"))
    set_input(q, "tf-focus", "tiny")
    q.eval("document.getElementById('tf-focus').dispatchEvent(new Event('change'))")
    q.settle()
    set_input(q, "tf-rec", checked=True)
    h = q.eval("location.hash")
    nodes = q.eval(JS_NODES)
    check(h == "#view=flame&focus=tiny&rec=1", "state: transforms in the fragment (%s)" % h)
    check(q.eval("document.getElementById('tf-status').textContent") == "kept: %.2f%% of the samples in the call paths"
          % (100 * sum(v for k, v in flat.items() if k.startswith("tiny")) / (cg["seconds"] * rate)),
          "transforms: the share kept")
    q2 = b.open(url(page_file, h))
    check(q2.eval(JS_NODES) == nodes and q2.eval("document.getElementById('tf-focus').value") == "tiny"
          and q2.eval("document.getElementById('tf-rec').checked"), "state: the fragment reopens the same transforms")
    # merge into callers = hide of that one function
    q3 = b.open(url(page_file, "#view=tree&mode=sandwich&fn=tinies"))
    click(q3, "#tree-merge")
    check(q3.eval("location.hash") == "#view=tree&mode=sandwich&fn=tinies&merge=%5B%22tinies%22%5D", "state: merge in the fragment")
    click(q3, "#tab-flame")
    hide_t = os.path.join(tmp, "cli-hide-tinies.html")
    profcat("-F", "html", "--hide", "^tinies$", "-o", hide_t, *base, cwd=UNIX)
    check(same_nodes(q3.eval(JS_NODES), b.open(url(hide_t, "#flame")).eval(JS_NODES)),
          "transforms: merging tinies into its callers = profcat --hide '^tinies$'")
    for x in (p, q, q2, q3):
        check(x.console == [], "trees: no console errors %r" % x.console)


JS_SVG = """[...document.querySelectorAll('g.f')].filter(g => g.style.display !== 'none').map(g => [g.querySelector('title').textContent.split(' (')[0],
  +g.querySelector('rect').getAttribute('x'), +g.querySelector('rect').getAttribute('width'), g.querySelector('rect').getAttribute('fill')])"""


def case_svg(b, tmp):
    """-e svg in a browser: click-to-zoom and search (flame-svg.js)."""
    svg = os.path.join(tmp, "flame.svg")
    profcat("-e", "svg", "-o", svg, "callgraph", "gmon.out", cwd=UNIX)
    p = b.open(url(svg), ready=False)
    before = p.eval(JS_SVG)
    hot = [i for i, g in enumerate(before) if g[0] == "hot"][0]
    check(p.eval("document.getElementById('reset').style.opacity") in ("", "0"), "svg: no Reset Zoom before a zoom")
    p.eval("document.querySelectorAll('g.f')[%d].dispatchEvent(new MouseEvent('click', {bubbles: true}))" % hot)
    p.settle()
    after = p.eval(JS_SVG)
    check([g[0] for g in after] == ["main", "hot"] and after[1][1:3] == [10, 1180] and after[0][1:3] == [10, 1180],
          "svg: a click zooms to the frame: it and its callers fill the width, the others hidden (%r)" % after)
    check(p.eval("document.getElementById('reset').style.opacity") == "1", "svg: Reset Zoom shown")
    p.eval("document.getElementById('reset').dispatchEvent(new MouseEvent('click', {bubbles: true}))")
    p.settle()
    check(p.eval(JS_SVG) == before, "svg: Reset Zoom restores every frame")
    p.eval("document.documentElement.pcSearch('tiny_')")
    got = p.eval(JS_SVG)
    tiny = sum(float(re.search(r"\(([\d.]+) samples", t).group(1)) for t in p.eval(
        "[...document.querySelectorAll('g.f title')].map(t => t.textContent)") if t.startswith("tiny_"))
    check({g[0] for g in got if g[3] == "rgb(230,0,230)"} == {"tiny_a", "tiny_b", "tiny_c"},
          "svg: search colours the matching frames")
    check(p.eval("document.getElementById('matched').textContent") == "Matched: %.2f%%" % (100 * tiny / 365.57),
          "svg: search says the share matched (%s)" % p.eval("document.getElementById('matched').textContent"))
    p.eval("document.documentElement.pcSearch('i')")
    check(p.eval("document.getElementById('matched').textContent") == "Matched: 100.00%",
          "svg: a match inside a match counted once")
    check(p.console == [], "svg: no console errors %r" % p.console)


NM = (b"0000000000001000 T plain\n"
      b"0000000000001010 T <script>alert(1)</script>\n"
      b"0000000000001020 T esc\x1b[31mred\x07\n"
      b"0000000000001030 T q\"uo'te&amp;\n"
      b"0000000000001040 T </script><b>x\n"
      b"0000000000001050 T bad\xfe\n"
      b"0000000000001060 T zend\n")
PCS = b"0x1004\n0x1014\n0x1014\n0x1024\n0x1034\n0x1044\n0x1054\n"


def case_escape(b, tmp):
    with open(os.path.join(tmp, "names.nm"), "wb") as f:
        f.write(NM)
    with open(os.path.join(tmp, "pcs.txt"), "wb") as f:
        f.write(PCS)
    page_file = os.path.join(tmp, "names.html")
    profcat("-F", "html", "-o", page_file, "pcs.txt", "names.nm", cwd=tmp)
    static_checks("escape", open(page_file, "rb").read())
    want = csv_rows(profcat("-F", "csv", "pcs.txt", "names.nm", cwd=tmp).decode())
    p = b.open(url(page_file))
    check(p.eval("document.documentElement.dataset.pcReady") == "ok", "escape: page ready without error")
    check(p.eval("document.scripts.length") == 4 and p.eval("[...document.querySelectorAll('b')].every(e => e.textContent !== 'x')"),
          "escape: no element made from a name")
    compare_flat("escape", rows(p, "flat-table"), want, False)
    shown = [g["symbol"][0] for g in rows(p, "flat-table")]
    for s in ("<script>alert(1)</script>", "esc\\x1b[31mred\\x07", "q\"uo'te&amp;", "</script><b>x", "bad\\xfe"):
        check(s in shown, "escape: %r shown as text" % s)
    click(p, "#tab-flame")
    names = p.eval("[...document.querySelectorAll('#flame-nodes li')].map(l => l.textContent)")
    check("<script>alert(1)</script>" in names and "no call arcs" in p.eval("document.getElementById('flame-estimate').textContent"),
          "escape: flame frames named as text; no arcs: not an estimate")
    click(p, "#tab-tree")
    tree = [t[0] for t in p.eval(JS_TREE % "tree-table")]
    check("<script>alert(1)</script>" in tree and "</script><b>x" in tree
          and p.eval("document.getElementById('tree-stacks').dataset.stacks") == "none",
          "escape: call tree rows named as text; no arcs: no stacks")
    check(p.console == [], "escape: no console errors %r" % p.console)


JS_ICICLE = """[...document.querySelectorAll('#diff-flame .fr')].map(f => ({name: f.textContent, tone: f.dataset.tone,
  bg: getComputedStyle(f).backgroundColor, cls: f.className}))"""
JS_CHANGE = """[...document.getElementById('diff-table').tBodies[0].rows].filter(r => !r.classList.contains('spacer')).map(r => {
  const td = r.querySelector('td.num[data-v]'); const c = [...r.cells].find(x => x.className.includes('up') || x.className.includes('down') || x.className.includes('ns'));
  return [r.cells[0].textContent, c.className, getComputedStyle(c).color, c.style.background]; })"""
RED, BLUE, GREY = "rgb(198, 40, 40)", "rgb(30, 95, 184)", "rgb(154, 160, 166)"


def diff_page(b, tmp, args, label, cwd=STATS):
    page_file = os.path.join(tmp, label + ".html")
    profcat("diff", "-F", "html", "-o", page_file, *args, cwd=cwd)
    static_checks("diff", open(page_file, "rb").read())
    want = list(csv.DictReader(io.StringIO(profcat("diff", "-F", "csv", *args, cwd=cwd).decode())))
    text = profcat("diff", *args, cwd=cwd).decode().splitlines()
    p = b.open(url(page_file))
    check(p.eval("document.documentElement.dataset.pcReady") == "ok", "%s: page ready without error" % label)
    return p, want, text


def check_colours(p, want, label, level=0.05):
    """Only the rows whose adjusted p is below the level are coloured, red
    slower, blue faster; the others and their icicle frames grey."""
    def tone(w):
        if w["p_adjusted"] == "" or not float(w["p_adjusted"]) < level:
            return "ns"
        return "slower" if float(w["change_pp"]) > 0 else "faster"
    tones = {w["symbol"]: tone(w) for w in want}
    got = p.eval(JS_CHANGE)
    ok = len(got) == len(want)
    for name, cls, colour, bg in got:
        t = tones.get(name)
        ok &= (t == "slower" and "up" in cls and colour == RED and bg != "") or \
              (t == "faster" and "down" in cls and colour == BLUE and bg != "") or \
              (t == "ns" and "ns" in cls and "up" not in cls and "down" not in cls and bg == "")
    check(ok, "%s: change cells coloured only where p adjusted < %g (%d red, %d blue, %d grey)"
          % (label, level, *[sum(1 for t in tones.values() if t == x) for x in ("slower", "faster", "ns")]))
    fr = p.eval(JS_ICICLE)
    colour = {"slower": RED, "faster": BLUE, "ns": GREY}
    check(fr and all(f["tone"] == tones.get(f["name"], "ns") and f["bg"] == colour[f["tone"]] for f in fr),
          "%s: icicle frames coloured as their functions' rows (%d frames)" % (label, len(fr)))
    return tones


def case_diff(b, tmp):
    args = ["twenty.nm", "diff_base.raw.gz", "diff_new.raw.gz"]
    p, want, text = diff_page(b, tmp, args, "diff")
    check(p.eval("document.getElementById('samples').textContent") == text[2], "diff: samples line = text diff's")
    check(p.eval("document.getElementById('test').textContent") == text[3], "diff: test line = text diff's")
    got = rows(p, "diff-table")
    bad = [] if len(got) == len(want) else ["%d rows" % len(got)]
    js = json.loads(profcat("diff", "-F", "json", *args, cwd=STATS))["rows"]
    for g, w, j in zip(got, want, js):
        lo, hi = j["ci_low_pp"], j["ci_high_pp"]
        ok = g["symbol"][0] == w["symbol"] and num_eq(g["before_count"][1], w["before_count"])
        ok &= num_eq(g["after_count"][1], w["after_count"]) and num_eq(g["change_pp"][1], w["change_pp"])
        ok &= (g["significant"][0] == "*") == (w["significant"] == "1") and ("sig" in g["_cls"]) == (w["significant"] == "1")
        ok &= g["mde_pp"][0] == "%.2f" % float(w["mde_pp"]) and abs(float(g["mde_pp"][1]) - float(w["mde_pp"])) <= 5e-5
        ok &= g["verdict"][0] == w["verdict"] + (" (+%s)" % w["more_samples"] if w["more_samples"] else "")
        ok &= g["ci"][0] == "[%s, %s]" % tuple("0" if v == 0 else "%+.2f" % v for v in (lo, hi))
        if not ok:
            bad.append((g, w))
    check(not bad, "diff: rows, intervals, MDE, verdicts and significance marks = diff -F csv (%d rows) %r"
          % (len(want), bad[:1]))
    tones = check_colours(p, want, "diff")
    check(tones["f03"] == "faster" and tones["f12"] == "ns", "diff: f03 blue, f12 (p adj 0.054) grey")
    set_input(p, "diff-significant", checked=True)
    check([g["symbol"][0] for g in rows(p, "diff-table")] == [w["symbol"] for w in want if w["significant"] == "1"],
          "diff: only significant")
    set_input(p, "diff-significant", checked=False)
    check(len(rows(p, "base-flat")) == 20 and len(rows(p, "new-flat")) == 20, "diff: both flat profiles side by side")
    p.screenshot(os.path.join(OUT, "html-diff.png"))
    check(p.console == [], "diff: no console errors %r" % p.console)
    # Benjamini-Hochberg takes f12 too: red
    p, want, text = diff_page(b, tmp, ["--correction", "bh"] + args, "diff-bh")
    tones = check_colours(p, want, "diff bh")
    check(tones["f12"] == "slower" and tones["f03"] == "faster", "diff bh: f12 red, f03 blue")
    check(p.console == [], "diff bh: no console errors %r" % p.console)


def case_diff_escape(b, tmp):
    """Hostile names in a diff page: table rows and icicle frames are text."""
    with open(os.path.join(tmp, "names.nm"), "wb") as f:
        f.write(NM)
    with open(os.path.join(tmp, "before.txt"), "wb") as f:
        f.write(PCS * 40)
    with open(os.path.join(tmp, "after.txt"), "wb") as f:
        f.write(PCS * 40 + b"0x1014\n" * 200)
    p, want, _ = diff_page(b, tmp, ["names.nm", "-f", "raw", "before.txt", "-f", "raw", "after.txt"], "diff-escape", cwd=tmp)
    check(p.eval("document.scripts.length") == 2 and p.eval("[...document.querySelectorAll('b')].every(e => e.textContent !== 'x')"),
          "diff escape: no element made from a name")
    shown = [g["symbol"][0] for g in rows(p, "diff-table")]
    frames = [f["name"] for f in p.eval(JS_ICICLE)]
    for s_ in ("<script>alert(1)</script>", "esc\\x1b[31mred\\x07", "q\"uo'te&amp;", "</script><b>x", "bad\\xfe"):
        check(s_ in shown and s_ in frames, "diff escape: %r shown as text in the table and the icicle" % s_)
    tones = check_colours(p, want, "diff escape")
    check(tones["<script>alert(1)</script>"] == "slower", "diff escape: the grown function is red")
    check(p.console == [], "diff escape: no console errors %r" % p.console)


JS_SRC = """[...document.querySelectorAll('#source-table tbody tr')].filter(r => !r.classList.contains('spacer'))
  .map(r => [+r.cells[0].textContent, r.cells[1].dataset.v === undefined ? 0 : +r.cells[1].dataset.v, r.cells[3].textContent,
  r.cells[4].textContent])"""
JS_DIS = """[...document.querySelectorAll('#disasm-table tbody tr')].filter(r => !r.classList.contains('spacer') && !r.classList.contains('hdr'))
  .map(r => [parseInt(r.cells[2].textContent, 16), r.cells[0].dataset.v === undefined ? null : +r.cells[0].dataset.v,
  r.cells[3].textContent])"""


def unroll(page, table):
    """every row of a VTable in the DOM: its box as high as the table
    (the table draws the rows that fit its box), then redrawn"""
    page.eval("""(() => { const b = document.getElementById(%r).parentNode; b.style.maxHeight = 'none';
      b.dispatchEvent(new Event('scroll')); })()""" % table)
    page.settle()


def wait_for(page, js, what):
    """polls js in the page until true (the Source tab decodes its data
    after it is shown)"""
    import time
    for _ in range(400):
        if page.eval(js):
            return True
        time.sleep(0.05)
    return check(False, "waited for " + what)


def select_file(page, name):
    page.eval("(() => { const s = document.getElementById('source-file'); s.value = %s; s.dispatchEvent(new Event('change')); })()"
              % json.dumps(name))
    page.settle()


def expand_tabs(line):
    out = ""
    for ch in line:
        if ch == "\t":
            out += " " * (8 - len(out) % 8)
        else:
            out += ch
    return out.rstrip(" ")


def case_source(b, tmp):
    """The Source tab: the text of each file with -r source's counts on
    its lines, missing files named, the disassembly rows of -r disasm,
    the URL fragment's state; hostile source text stays text."""
    page_file = os.path.join(tmp, "source.html")
    base = ["lines-O2", "gmon.out"]
    profcat("-F", "html", "--source-path", "../programs", "-o", page_file, *base, cwd=SOURCE)
    js = json.loads(profcat("-r", "source", "-F", "json", *base, cwd=SOURCE))
    p = b.open(url(page_file, "#source"))
    check(p.eval("document.documentElement.dataset.pcReady") == "ok", "source: page ready without error")
    wait_for(p, "document.getElementById('source-table') !== null", "the source table")
    files = sorted({l["file"] for l in js["lines"]})
    check(p.eval("[...document.getElementById('source-file').options].map(o => o.value).sort()") == files,
          "source: a file entry per file of -r source (%d)" % len(files))
    unroll(p, "source-table")
    unroll(p, "disasm-table")
    for f in files:
        select_file(p, f)
        unroll(p, "source-table")
        got = p.eval(JS_SRC)
        want = {l["line"]: l["count"] for l in js["lines"] if l["file"] == f and "inlined" not in l}
        text = open(os.path.join(SOURCE, "..", "programs", os.path.basename(f)), encoding="utf-8").read().split("\n")
        if text and text[-1] == "":
            text.pop()
        check([g[0] for g in got] == list(range(1, len(text) + 1)), "source: %s: a row per line of the file (%d)" % (f, len(text)))
        check({g[0]: g[1] for g in got if g[1]} == want, "source: %s: the counts of -r source on their lines (%d lines)" % (f, len(want)))
        check([g[3] for g in got] == [expand_tabs(t) for t in text], "source: %s: the text of the file on its lines" % f)
    check(p.eval("getComputedStyle(document.querySelector('#source-table td.code')).whiteSpace") == "pre"
          and p.eval("getComputedStyle(document.getElementById('transforms')).display") == "none",
          "source: the code keeps its indentation; no transforms bar (they apply to the call paths)")
    select_file(p, "/profcore-src/lines_util.c")
    got = {g[0]: g[2] for g in p.eval(JS_SRC)}
    check(got[14] == "mix 1", "source: the code of mix inlined at lines_util.c:14 (1 sample, as -r locations)")
    loc = profcat("-r", "locations", "-F", "csv", *base, cwd=SOURCE).decode()
    check(sum(int(r["count"]) for r in csv.DictReader(io.StringIO(loc)) if "mix at /profcore-src/lines_util.h" in r["frames"]
              and "checksum at /profcore-src/lines_util.c:14" in r["frames"]) == 1,
          "source: -r locations has 1 sample of mix inlined into checksum at line 14")
    p.screenshot(os.path.join(OUT, "html-source.png"))

    # disassembly: every embedded function's rows = -r disasm's
    funcs = p.eval("[...document.getElementById('disasm-func').options].map(o => o.textContent.split(' \u2014 ')[0])")
    r = subprocess.run([PROFCAT, "-r", "disasm", "main", "-F", "json"] + base, cwd=SOURCE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode == 0:
        flat = csv_rows(profcat("-F", "csv", *base, cwd=SOURCE).decode())
        check(funcs == [w["symbol"] for w in flat if float(w["count"]) > 0][:100],
              "disasm: the functions with samples embedded, most samples first (%d)" % len(funcs))
        for i, fn in enumerate(funcs):
            p.eval("(() => { const s = document.getElementById('disasm-func'); s.value = '%d'; s.dispatchEvent(new Event('change')); })()" % i)
            p.settle()
            unroll(p, "disasm-table")
            d = json.loads(profcat("-r", "disasm", fn, "-F", "json", *base, cwd=SOURCE))
            want = [[x["address"], x["count"], x["instruction"]] for x in d["instructions"]]
            check(p.eval(JS_DIS) == want, "disasm: %s: the rows of -r disasm (%d instructions)" % (fn, len(want)))
        p.eval("(() => { const s = document.getElementById('disasm-func'); s.value = '%d'; s.dispatchEvent(new Event('change')); })()"
               % funcs.index("integrate"))
        p.settle()
        hdr = p.eval("[...document.querySelectorAll('#disasm-table tr.hdr')].map(r => r.cells[3].textContent)")
        check(any(h.startswith("lines_util.c:25  sum += x * x * dx;") for h in hdr),
              "disasm: the source line (file:line and its text) above its instructions")
        p.screenshot(os.path.join(OUT, "html-disasm.png"))
    else:
        msg = r.stderr.decode().strip().split(": ", 1)[-1]
        check(msg in p.eval("document.getElementById('disasm-panel').textContent"), "disasm: says why there is none (%s)" % msg)

    # jumps and the URL fragment
    p2 = b.open(url(page_file, "#view=source&file=%2Fprofcore-src%2Flines_util.c&line=25"))
    wait_for(p2, "document.querySelector('#source-table tr.sel') !== null", "the selected line")
    check(p2.eval("document.querySelector('#source-table tr.sel').cells[0].textContent") == "25"
          and p2.eval("document.getElementById('source-file').value") == "/profcore-src/lines_util.c",
          "state: the fragment's file and line are shown selected")
    check(p2.eval("[...document.querySelectorAll('#disasm-table tr.hdr')].map(r => r.cells[3].textContent.split('  ')[0])") == ["lines_util.c:25"]
          * len(p2.eval("[...document.querySelectorAll('#disasm-table tr.hdr')]")) and p2.eval(JS_DIS),
          "state: the disassembly of that line beside it")
    p3 = b.open(url(page_file))
    p3.eval("[...document.querySelectorAll('#flat-table tbody tr')].find(r => r.cells[1] && r.cells[1].textContent === 'integrate').click()")
    wait_for(p3, "document.querySelector('#source-table tr.sel') !== null", "a flat row's lines")
    h = p3.eval("location.hash")
    check(p3.eval("document.getElementById('view-source').hidden") is False
          and p3.eval("document.querySelector('#source-table tr.sel').cells[0].textContent") == "25"
          and p3.eval("document.getElementById('disasm-func').selectedOptions[0].textContent").startswith("integrate "),
          "jump: a flat row opens its hottest line and its disassembly")
    check(h == "#view=source&fn=integrate", "state: the fragment says view and function (%s)" % h)
    p4 = b.open(url(page_file, h))
    wait_for(p4, "document.querySelector('#source-table tr.sel') !== null", "the reopened selection")
    check(p4.eval("document.querySelector('#source-table tr.sel').cells[0].textContent") == "25"
          and p4.eval("document.getElementById('disasm-func').selectedOptions[0].textContent").startswith("integrate ")
          and p4.eval("location.hash") == h, "state: the fragment reopens the same view")

    # missing files are named; hostile source text is text
    page2 = os.path.join(tmp, "source-missing.html")
    profcat("-F", "html", "-o", page2, *base, cwd=SOURCE)
    p5 = b.open(url(page2, "#source"))
    wait_for(p5, "document.getElementById('source-table') !== null", "the source table")
    check(p5.eval("document.getElementById('source-file-note').textContent")
          == "no text: source file not found (give its directory in the option source-path)",
          "source: a missing file is named with the reason")
    check(sorted(g[0] for g in p5.eval(JS_SRC) if g[1]) == sorted(l["line"] for l in js["lines"] if l["file"] == p5.eval(
        "document.getElementById('source-file').value") and "inlined" not in l), "source: a missing file's counted lines")
    hostile = os.path.join(tmp, "hostile")
    os.makedirs(hostile)
    evil = ["</script><script>document.title='pwned'</script>", "<img src=x onerror=\"document.title='pwned'\">",
            "a\x1b[31mb\x07c & <b>x</b>", "\tint x;"]
    with open(os.path.join(hostile, "lines_util.c"), "wb") as f:
        f.write(("\n".join(evil) + "\n").encode() + b"bad\xfe\n" + b"\n" * 40)
    page3 = os.path.join(tmp, "source-hostile.html")
    profcat("-F", "html", "--source-path", hostile, "-o", page3, *base, cwd=SOURCE)
    static_checks("hostile source", open(page3, "rb").read())
    p6 = b.open(url(page3, "#view=source&file=%2Fprofcore-src%2Flines_util.c"))
    wait_for(p6, "document.getElementById('source-table') !== null", "the source table")
    select_file(p6, "/profcore-src/lines_util.c")
    got = [g[3] for g in p6.eval(JS_SRC)][:5]
    check(got == [evil[0], evil[1], "a?[31mb?c & <b>x</b>", "        int x;", "bad\\xfe"],
          "source: hostile source text shown as text (%r)" % got)
    check(p6.eval("document.title") != "pwned" and p6.eval("document.querySelectorAll('img, #source-table b').length") == 0,
          "source: no element made from source text")
    for q in (p, p2, p3, p4, p5, p6):
        check(q.console == [], "source: no console errors %r" % q.console)


def case_many(b, tmp):
    """More rows than the first view's data holds (formats/html.c
    FIRST_ROWS, 250): the rest arrive from #pc-data-rest after the first
    view; filter, counter and zero toggle cover all of them."""
    label = "many"
    with open(os.path.join(tmp, "many.nm"), "w") as f:
        f.write("".join("%016x T g%04d\n" % (0x10000 + 16 * i, i) for i in range(700)))
    with open(os.path.join(tmp, "many.pcs"), "w") as f:
        f.write("".join("0x%x\n" % (0x10000 + 16 * i) * (1 + i * 37 % 11) for i in range(650)))
    page_file = os.path.join(tmp, "many.html")
    profcat("-F", "html", "-o", page_file, "many.nm", "-f", "raw", "many.pcs", cwd=tmp)
    static_checks(label, open(page_file, "rb").read())
    want = csv_rows(profcat("-F", "csv", "many.nm", "-f", "raw", "many.pcs", cwd=tmp).decode())
    want_zero = csv_rows(profcat("-F", "csv", "--zero", "many.nm", "-f", "raw", "many.pcs", cwd=tmp).decode())
    p = b.open(url(page_file))
    check(p.eval("document.documentElement.dataset.pcReady") == "ok", "many: page ready without error")
    # the first view's element holds the header and the first 250 rows,
    # the gzip'ed, base64'ed rest the others and the other views
    import base64
    import gzip
    text = open(page_file, encoding="utf-8").read()
    first = json.loads(re.search(r'<script type="application/json" id="pc-data">(.*?)</script>', text, re.S).group(1))
    rest = json.loads(gzip.decompress(base64.b64decode(re.search(
        r'<script type="application/gzip" data-encoding="base64" id="pc-data-rest">(.*?)</script>',
        text, re.S).group(1))))
    check(len(first["flat"]["data"]) == 250 and first["flat"]["nrows"] == len(want_zero)
          and len(rest["flat_data"]) == len(want_zero) - 250 and "flame" in rest and "flame" not in first
          and "regions" in first,
          "many: #pc-data holds 250 of %d rows and the regions, #pc-data-rest the other %d and the other views"
          % (len(want_zero), len(want_zero) - 250))
    check(p.eval("performance.getEntriesByName('pc-first-view').length") == 1,
          "many: the page marks its first view (pc-first-view)")
    check(p.eval("document.getElementById('flat-count').textContent") == "%d of %d rows" % (len(want), len(want_zero)),
          "many: row counter counts every row (%d of %d)" % (len(want), len(want_zero)))
    check("(%d)" % (len(want_zero) - len(want)) in p.eval("document.getElementById('flat-zero').parentNode.textContent"),
          "many: zero-hit label counts the rows of the rest")
    rx = re.compile(r"^g0[0-6][0-9]5$")
    set_input(p, "flat-regex", checked=True)
    set_input(p, "flat-filter", "^g0[0-6][0-9]5$")
    sub = [w for w in want if rx.search(w["symbol"])]
    check(max(int(w["rank"]) for w in sub) > 250, "many: the filtered rows reach past the first 250")
    compare_flat(label + " filtered", rows(p, "flat-table"), sub, False)
    set_input(p, "flat-zero", checked=True)
    compare_flat(label + " filtered --zero", rows(p, "flat-table"),
                 [w for w in want_zero if rx.search(w["symbol"])], False)
    check(not p.console, "many: no console errors %s" % p.console)


def main():
    if not cdp.chromium():
        print("SKIP: chromium not installed (scripts/deps.sh installs it): the HTML report is tested in a real browser")
        return 77
    os.makedirs(OUT, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="pc-html-")
    try:
        with cdp.Browser() as b:
            if os.environ.get("PC_HAVE_ELF", "1") == "1":
                case_gmon(b, tmp)
                case_trees(b, tmp)
                case_svg(b, tmp)
                if (os.environ.get("PC_HAVE_DWARF", "1") == "1" and
                        os.environ.get("PC_HAVE_CAPSTONE", "1") == "1"):
                    case_source(b, tmp)
                else:
                    print("skip the source case: built without libdw or Capstone")
            else:
                print("skip gmon and source cases: built without the ELF loader")
            case_escape(b, tmp)
            case_diff(b, tmp)
            case_diff_escape(b, tmp)
            case_many(b, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("screenshots in " + OUT)
    if failures:
        print("%d failed" % len(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
