#!/usr/bin/env python3
"""A random C program with a random call graph (self calls, cycles of
every size, cycles calling cycles, functions that never spin: zero-time
cycles), some functions static; the call budget keeps every run short.

    randprog.py SEED > prog.c
"""
import random, sys
def gen(seed, n=None):
    r = random.Random(seed)
    n = n or r.randint(4, 30)
    names = ["f%d" % i for i in range(n)]
    r.shuffle(names)
    out = ["#include <stdlib.h>", "volatile unsigned long sink;",
           "static unsigned budget;",
           "static void spin(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i; }"]
    for nm in names:
        out.append("%sint %s(int d);" % ("static " if r.random() < 0.2 else "", nm))
    for i, nm in enumerate(names):
        body = []
        if r.random() < 0.4:
            body.append("spin(%d);" % r.choice([10, 100, 1000, 5000]))
        k = r.randint(0, 4)
        for _ in range(k):
            callee = r.choice(names)
            body.append("if (d > 0 && budget > 0) { budget--; %s(d - %d); }" % (callee, r.randint(1, 2)))
        out.append("%sint %s(int d) { %s return d; }" % ("static " if ("static int %s(" % nm) in "\n".join(out) else "", nm, " ".join(body)))
    out.append("int main(int argc, char **argv) { int reps = argc > 1 ? atoi(argv[1]) : 100;")
    out.append(" for (int r = 0; r < reps; r++) {")
    for nm in r.sample(names, r.randint(1, min(4, n))):
        out.append("  budget = %d; %s(%d);" % (r.choice([10, 50, 300]), nm, r.randint(3, 12)))
    out.append(" } return 0; }")
    return "\n".join(out) + "\n"
if __name__ == "__main__":
    sys.stdout.write(gen(int(sys.argv[1])))
