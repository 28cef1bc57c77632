#!/usr/bin/env python3
"""Turns the built-in map dialects (YAML files) into C data: one tree of
pc_ynode (libprofcore/ytree.h) per file, so that the library has them
without an installed data directory and without libyaml.

Only the YAML that the dialect files use is read, and anything else is
refused with FILE:LINE: a message (so a new construct fails the build
instead of being misread): block mappings with plain keys, block
sequences ("- item", "- key: value ..."), plain scalars on one line,
single-quoted scalars on one line, and comments.  Not accepted: flow
collections ([...] {...}), double quotes, block scalars (| >), anchors,
aliases, tags, several documents, tabs in indentation, multi-line
scalars.  Line and column of every node are the ones libyaml reports;
tests/dos/test_dialect_tree.c checks that libyaml reads the same tree.

usage: embed.py [--table NAME] OUTPUT.c DIALECT.yaml...
(NAME: the C array, default pc_map_builtins)
"""
import os
import re
import sys


class Bad(Exception):
    pass


class Node:
    def __init__(self, kind, line, col, text=None):
        self.kind, self.line, self.col, self.text = kind, line, col, text
        self.kids = []


KEY = re.compile(r'([A-Za-z0-9_][A-Za-z0-9_-]*):(?: +|$)')
PLAIN_START_BAD = set('-?:,[]{}#&*!|>\'"%@`')


def scalar(text, line, col):
    """A scalar at the start of text (column col); returns (node, rest)."""
    if text.startswith("'"):
        out, i = [], 1
        while True:
            j = text.find("'", i)
            if j < 0:
                raise Bad("%d: unterminated single-quoted scalar" % line)
            out.append(text[i:j])
            if text[j + 1:j + 2] == "'":
                out.append("'")
                i = j + 2
                continue
            return Node('scalar', line, col, ''.join(out)), text[j + 1:]
    if not text or text[0] in PLAIN_START_BAD:
        raise Bad("%d: unsupported value %r (use a plain or a single-quoted scalar)"
                  % (line, text[:20]))
    m = re.search(r' #', text)
    value, rest = (text[:m.start()], text[m.start():]) if m else (text, '')
    value = value.rstrip(' ')
    if ': ' in value or value.endswith(':') or '\t' in value:
        raise Bad("%d: ambiguous plain scalar %r (quote it)" % (line, value))
    return Node('scalar', line, col, value), rest


def end_of_line(rest, line):
    rest = rest.lstrip(' ')
    if rest and not rest.startswith('#'):
        raise Bad("%d: unexpected text %r after a value" % (line, rest[:20]))


def read_lines(data):
    lines = []
    for no, raw in enumerate(data.split('\n'), 1):
        body = raw.rstrip('\r')
        stripped = body.lstrip(' ')
        if not stripped or stripped.startswith('#'):
            continue
        if stripped.startswith('\t'):
            raise Bad("%d: tab in indentation" % no)
        if stripped.startswith(('---', '...', '%')):
            raise Bad("%d: document markers and directives are not supported" % no)
        lines.append([no, len(body) - len(stripped), stripped])
    return lines


class Parser:
    def __init__(self, lines):
        self.lines, self.i = lines, 0

    def peek(self):
        return self.lines[self.i] if self.i < len(self.lines) else None

    def block(self, indent):
        """The block collection whose first line is the current one."""
        no, ind, text = self.peek()
        if ind != indent:
            raise Bad("%d: bad indentation" % no)
        if text == '-' or text.startswith('- '):
            return self.sequence(indent)
        return self.mapping(indent)

    def value_after(self, no, rest, col, parent_indent):
        """A value that follows "key:" or "-": inline, or a nested block."""
        if rest.strip(' ') and not rest.lstrip(' ').startswith('#'):
            lead = len(rest) - len(rest.lstrip(' '))
            node, tail = scalar(rest[lead:], no, col + lead)
            end_of_line(tail, no)
            return node
        nxt = self.peek()
        if nxt is None or nxt[1] <= parent_indent:
            raise Bad("%d: empty values are not supported" % no)
        return self.block(nxt[1])

    def mapping(self, indent):
        no, ind, text = self.peek()
        node = Node('map', no, indent + 1)
        while True:
            cur = self.peek()
            if cur is None or cur[1] < indent:
                return node
            no, ind, text = cur
            if ind > indent:
                raise Bad("%d: bad indentation" % no)
            if text == '-' or text.startswith('- '):
                raise Bad("%d: a sequence at the indentation of its key is not supported" % no)
            m = KEY.match(text)
            if not m:
                raise Bad("%d: expected 'key: value'" % no)
            key = m.group(1)
            node.kids.append(Node('scalar', no, indent + 1, key))
            self.i += 1
            node.kids.append(self.value_after(no, text[len(key) + 1:],
                                              indent + len(key) + 2, indent))

    def sequence(self, indent):
        no, ind, text = self.peek()
        node = Node('seq', no, indent + 1)
        while True:
            cur = self.peek()
            if cur is None or cur[1] < indent:
                return node
            no, ind, text = cur
            if ind > indent or not (text == '-' or text.startswith('- ')):
                raise Bad("%d: expected '- item'" % no)
            rest = text[1:]
            lead = len(rest) - len(rest.lstrip(' '))
            item = rest[lead:]
            if item and not item.startswith('#') and KEY.match(item):
                # "- key: value": a mapping indented at the key
                cur[1], cur[2] = indent + 1 + lead, item
                node.kids.append(self.mapping(indent + 1 + lead))
                continue
            self.i += 1
            node.kids.append(self.value_after(no, rest, indent + 2, indent))


def parse(data):
    lines = read_lines(data)
    if not lines:
        raise Bad("1: empty document")
    p = Parser(lines)
    root = p.block(0)
    if p.peek() is not None:
        raise Bad("%d: unexpected text at the top level" % p.peek()[0])
    return root


def c_string(text):
    out = []
    for b in text.encode('utf-8'):
        if b == 0x5C:
            out.append('\\\\')
        elif b == 0x22:
            out.append('\\"')
        elif 0x20 <= b < 0x7F and b != 0x3F:  # no ?? trigraphs
            out.append(chr(b))
        else:
            out.append('\\%03o' % b)
    return '"' + ''.join(out) + '"'


KINDS = {'scalar': 'PC_YN_SCALAR', 'seq': 'PC_YN_SEQ', 'map': 'PC_YN_MAP'}


def emit(prefix, root, parts):
    """Nodes in post-order, so every array is defined before it is used."""
    count = [0]

    def visit(n):
        kid_names = [visit(k) for k in n.kids]
        name = '%s_%d' % (prefix, count[0])
        count[0] += 1
        kids = 'NULL'
        if kid_names:
            parts.append('static const pc_ynode *const %s_kids[] = {%s};'
                         % (name, ', '.join('&' + k for k in kid_names)))
            kids = name + '_kids'
        text = c_string(n.text) if n.text is not None else 'NULL'
        slen = len(n.text.encode('utf-8')) if n.text is not None else 0
        parts.append('static const pc_ynode %s = {%s, %s, %d, %s, %d, 0, %d, %d};'
                     % (name, KINDS[n.kind], text, slen, kids, len(n.kids), n.line, n.col))
        return name
    return visit(root)


def main():
    args = sys.argv[1:]
    table = 'pc_map_builtins'
    if args[:1] == ['--table']:
        table, args = args[1], args[2:]
    out, inputs = args[0], args[1:]
    parts = ['/* Generated by dialects/embed.py from the dialects/ YAML files: do not edit. */',
             '#include "ytree.h"', '']
    entries = []
    for i, path in enumerate(sorted(inputs, key=os.path.basename)):
        name = os.path.basename(path)
        if name.endswith('.yaml'):
            name = name[:-5]
        with open(path, 'rb') as f:
            data = f.read()
        try:
            text = data.decode('utf-8')
            if '\0' in text:
                raise Bad("1: NUL byte")
            root = parse(text)
        except UnicodeDecodeError:
            sys.stderr.write('%s: not UTF-8\n' % path)
            return 1
        except Bad as e:
            sys.stderr.write('%s:%s (embed.py reads a subset of YAML)\n' % (path, e))
            return 1
        top = emit('d%d' % i, root, parts)
        parts.append('')
        entries.append('\t{"%s", &%s},' % (name, top))
    parts.append('const pc_ydoc %s[] = {' % table)
    parts.extend(entries)
    parts.append('\t{NULL, NULL}')
    parts.append('};')
    with open(out, 'w') as f:
        f.write('\n'.join(parts) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
