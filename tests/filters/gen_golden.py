#!/usr/bin/env python3
"""Writes golden/NAME.txt for every case of cases.py with the profcat
given as $PROFCAT (a build whose output was checked by hand: see
check_filters.py for the relations the goldens are also checked
against).  Usage: PROFCAT=build/cli/profcat tests/filters/gen_golden.py"""
import os
import subprocess
import sys

import cases

HERE = os.path.dirname(os.path.abspath(__file__))
for name, cwd, args, _ in cases.cases():
    r = subprocess.run([os.environ["PROFCAT"]] + args, cwd=cwd,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if r.returncode:
        sys.exit("%s: exit %d: %s" % (name, r.returncode, r.stdout.decode()))
    with open(os.path.join(HERE, "golden", name + ".txt"), "wb") as f:
        f.write(cases.to_golden(r.stdout))
    print("wrote golden/%s.txt" % name)
