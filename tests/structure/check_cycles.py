#!/usr/bin/env python3
"""No circle between source files (issue #36).

Derives two graphs from the sources, without building them:

  include  A -> B   when A.c or A.h includes B.h;
  call     A -> B   when A.c names a function or a variable defined, not
                    static, at file scope in B.c (the call graph, and the
                    tables that point at another file's functions).

A and B are modules: foo.c and foo.h in one folder are one node.  A cycle
in the union of the two graphs (a strongly connected set of modules) is
printed with the edges that make it, each with its evidence, and fails
the test.

Usage: check_cycles.py [SOURCE_ROOT] [--graph] (SOURCE_ROOT defaults to
PC_SOURCE_ROOT, else this file's ../..).  --graph prints every edge;
--self-test runs the checker on small trees with and without a circle.
"""
import os
import re
import sys

DIRS = ["libprofcore", "libprofcore/include", "loaders", "formats", "cli"]
# Where `#include "x.h"` looks after the including file's own folder
# (the include_directories of the meson.build files).
INCLUDE_PATH = ["libprofcore/include", "libprofcore", "formats", "cli",
                "loaders"]

COMMENT_OR_STRING = re.compile(
    r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
    re.S)
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.M)
IDENT = re.compile(r'[A-Za-z_]\w*')
# a file-scope definition starts in column 0 with a type, and ends its
# declarator with `(` (a function) or `=`/`[`/`;` (a variable)
TOPLEVEL = re.compile(r'^(?!static\b|typedef\b|extern\b|struct\b[^;(]*\{|'
                      r'enum\b|union\b|return\b|#)'
                      r'[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)[ \t]*'
                      r'(\(|\[|=|;)', re.M)


def strip(text, strings=True):
    """Comments (and string literals unless strings is false) out; the
    line structure is kept so that column 0 stays column 0."""
    def blank(m):
        s = m.group(0)
        if s.startswith('"') or s.startswith("'"):
            return '""' if strings else s
        return '\n' * s.count('\n') or ' '
    return COMMENT_OR_STRING.sub(blank, text)


def module(rel):
    d, base = os.path.split(rel)
    return d + "/" + os.path.splitext(base)[0]


def definitions(text):
    """Names defined, not static, at file scope (depth 0) in text."""
    names = set()
    depth = 0
    pos = 0
    # depth of each line start: definitions are read at depth 0 only
    for m in TOPLEVEL.finditer(text):
        depth += text.count('{', pos, m.start()) - text.count('}', pos, m.start())
        pos = m.start()
        if depth != 0:
            continue
        name, after = m.group(1), m.group(2)
        if after == '(':
            # a function: its parameter list is followed by `{`
            i, d = m.end(), 1
            while i < len(text) and d:
                d += {'(': 1, ')': -1}.get(text[i], 0)
                i += 1
            rest = text[i:i + 200].lstrip()
            if rest.startswith('{'):
                names.add(name)
        elif after in '=[':
            names.add(name)
    return names


SELF_TEST = {
    # a circle through an include and a call: must fail
    "include+call": ({
        "formats/a.h": "int pc_a(void);\n",
        "formats/a.c": '#include "a.h"\n#include "b.h"\n'
                       'int pc_a(void)\n{\n\treturn pc_b();\n}\n',
        "formats/b.h": "int pc_b(void);\n",
        "formats/b.c": '#include "a.h"\nint pc_b(void)\n{\n\treturn 1;\n}\n',
    }, 1),
    # calls only, declared elsewhere, multi-line parameters, a table: fails
    "calls": ({
        "cli/x.c": "static int t(int);\nint pc_x(int a,\n\t int b)\n{\n"
                   "\treturn pc_y() + a + b;\n}\n",
        "cli/y.c": "const int *pc_ytab[] = {0};\nint pc_y(void)\n{\n"
                   "\treturn pc_x(1, 2);\n}\n",
    }, 1),
    # one way only, names in comments and strings, static and
    # declarations not definitions: passes
    "layered": ({
        "cli/x.c": "/* pc_y() */\nint pc_x(void)\n{\n\treturn pc_y();\n}\n",
        "cli/y.c": 'static int pc_x2(void)\n{\n\treturn 0;\n}\n'
                   'int pc_y(void);\nconst char *s = "pc_x";\n'
                   'int pc_y(void)\n{\n\treturn pc_x2();\n}\n',
    }, 0),
}


def self_test():
    """The checker on small trees with and without a circle."""
    import tempfile
    import contextlib
    import io
    bad = 0
    for name, (tree, want) in SELF_TEST.items():
        with tempfile.TemporaryDirectory() as d:
            for sub in DIRS:
                os.makedirs(os.path.join(d, sub), exist_ok=True)
            for rel, text in tree.items():
                with open(os.path.join(d, rel), 'w') as f:
                    f.write(text)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                got = main(['', d])
            if got != want:
                print('self-test %s: exit %d, expected %d\n%s' % (
                    name, got, want, out.getvalue()))
                bad += 1
    print('self-test: %d of %d cases right' % (len(SELF_TEST) - bad,
                                               len(SELF_TEST)))
    return 1 if bad else 0


def main(argv):
    args = [a for a in argv[1:] if not a.startswith('--')]
    show = '--graph' in argv
    root = args[0] if args else os.environ.get(
        'PC_SOURCE_ROOT',
        os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
    files, includes = {}, {}
    for d in DIRS:
        full = os.path.join(root, d)
        for base in sorted(os.listdir(full)):
            if base.endswith(('.c', '.h')):
                rel = d + "/" + base
                with open(os.path.join(root, rel), encoding='utf-8',
                          errors='replace') as f:
                    raw = f.read()
                files[rel] = strip(raw)
                includes[rel] = INCLUDE.findall(strip(raw, strings=False))
    edges = {}  # (a, b) -> [evidence]

    def edge(a, b, why):
        if a != b:
            edges.setdefault((a, b), []).append(why)

    for rel, text in files.items():
        here = os.path.dirname(rel)
        for inc in includes[rel]:
            for d in [here] + INCLUDE_PATH:
                cand = os.path.normpath(d + "/" + inc)
                if cand in files:
                    edge(module(rel), module(cand),
                         '%s includes %s' % (rel, cand))
                    break
    owner = {}
    for rel, text in files.items():
        if rel.endswith('.c'):
            for name in definitions(text):
                owner.setdefault(name, []).append(rel)
    for rel, text in files.items():
        if not rel.endswith('.c'):
            continue
        for name in sorted(set(IDENT.findall(text))):
            for o in owner.get(name, ()):
                if o != rel:
                    edge(module(rel), module(o),
                         '%s uses %s (%s)' % (rel, name, o))
    nodes = sorted({module(r) for r in files})
    succ = {n: [] for n in nodes}
    for a, b in sorted(edges):
        succ[a].append(b)
    if show:
        for (a, b), why in sorted(edges.items()):
            print('%s -> %s: %s' % (a, b, '; '.join(why)))

    # Tarjan's strongly connected components, iteratively
    index, low, onstack, stack, sccs = {}, {}, set(), [], []
    counter = [0]
    for root_node in nodes:
        if root_node in index:
            continue
        work = [(root_node, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = counter[0]
                counter[0] += 1
                stack.append(v)
                onstack.add(v)
            recurse = False
            for j in range(i, len(succ[v])):
                w = succ[v][j]
                if w not in index:
                    work.append((v, j + 1))
                    work.append((w, 0))
                    recurse = True
                    break
                if w in onstack:
                    low[v] = min(low[v], index[w])
            if recurse:
                continue
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    onstack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    sccs.append(sorted(comp))
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])

    for comp in sorted(sccs):
        inside = set(comp)
        print('FAIL: circle between %d modules: %s' % (len(comp), ' '.join(comp)))
        for (a, b), why in sorted(edges.items()):
            if a in inside and b in inside:
                print('    %s -> %s: %s%s' % (a, b, why[0],
                      ' (and %d more)' % (len(why) - 1) if len(why) > 1 else ''))
    print('%d modules, %d edges, %d circle%s'
          % (len(nodes), len(edges), len(sccs), '' if len(sccs) == 1 else 's'))
    return 1 if sccs else 0


if __name__ == '__main__':
    sys.exit(self_test() if '--self-test' in sys.argv else main(sys.argv))
