#!/bin/sh
# Regenerates fixtures/callgraph.nm.txt: the symbols of the unix x86-64 test
# program as `nm -n` lists them (GNU nm 2.40, Debian 12), so that its
# gmon.out can be read without an ELF reader (the Windows leg).
set -e
cd "$(dirname "$0")"
nm -n ../unix/fixtures/x86_64-nopie/callgraph > fixtures/callgraph.nm.txt
