#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that every hunk of a gfp-param series replaces only a base mask.

usage: param-hunks.py GFPMASK_C PATCH...

Each removed line must be paired with an added line that differs from it
in exactly one C token: a base mask (the list in lib/gfpmask.c, GFPMASK_C)
that became a lower-case identifier (the caller's gfp_t parameter).
Prints one line per hunk that does not, and "N hunks" at the end; exits 1
when a hunk was wrong or there was none.
"""
import re
import sys

TOKEN = re.compile(r'''[A-Za-z_][A-Za-z0-9_]*|\d[\w.]*|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|->|<<=|>>=|[-+*/%&|^<>=!]=|&&|\|\||<<|>>|\+\+|--|\S''')


def tokens(line):
    line = re.sub(r'/\*.*?\*/', ' ', line)
    line = re.sub(r'//.*', '', line)
    return TOKEN.findall(line)


def check_pair(old, new, masks):
    a, b = tokens(old), tokens(new)
    if len(a) != len(b):
        return "token counts differ (%d -> %d)" % (len(a), len(b))
    diff = [(x, y) for x, y in zip(a, b) if x != y]
    if len(diff) != 1:
        return "%d tokens differ" % len(diff)
    x, y = diff[0]
    if x not in masks:
        return "'%s' is not a base mask" % x
    if not re.fullmatch(r'[a-z_][a-z0-9_]*', y):
        return "'%s' is not a parameter name" % y
    return None


def main():
    masks = set(re.findall(r'"(GFP_[A-Z0-9_]+)"', open(sys.argv[1]).read()))
    bad = hunks = 0
    for patch in sys.argv[2:]:
        name, header, minus, plus = None, None, [], []

        def flush():
            nonlocal bad, hunks, minus, plus
            if header is None or (not minus and not plus):
                minus, plus = [], []
                return
            hunks += 1
            why = None
            if len(minus) != len(plus):
                why = "%d lines removed, %d added" % (len(minus), len(plus))
            for o, n in zip(minus, plus):
                why = why or check_pair(o, n, masks)
            if why:
                bad += 1
                print("%s: %s: %s" % (name, header, why))
            minus, plus = [], []

        for line in open(patch, errors='replace'):
            line = line.rstrip('\n')
            if line.startswith('diff --git '):
                flush()
                name, header = line.split(' b/', 1)[-1], None
            elif line.startswith('@@'):
                flush()
                header = line
            elif header is None:
                continue
            elif line == '-- ':
                flush()  # the signature: the patch's diff is over
                header = None
            elif line.startswith('-'):
                minus.append(line[1:])
            elif line.startswith('+'):
                plus.append(line[1:])
            else:
                flush()
        flush()
    print("%d hunks" % hunks)
    return 1 if bad or not hunks else 0


if __name__ == '__main__':
    sys.exit(main())
