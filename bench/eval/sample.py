#!/usr/bin/env python3
"""Draw the hand-labelling sample of allocation sites from a scan of a tree.

    sample.py DB > sites.txt

The population is every allocation call (allocators.kind 'alloc', no cache
creation) outside the user-space parts of the tree (tools/, scripts/, usr/,
samples/), one site per (path, line of its flags): a label is read from the
code at that line.  The draw is a fixed-seed random sample, stratified so that
the kinds the classifiers handle differently each get enough sites to show up
in the figures: a plain random part, then the page allocator, the vmalloc
family, learned wrappers and sites in inactive #if branches, each filled from
what the previous strata did not take.  Output: path:line, shuffled, one a
line; the same database gives the same list.
"""
import random
import sqlite3
import sys

SEED = 61
STRATA = [  # (name, SQL condition on s/a, count)
    ("random", "1", 90),
    ("page", "a.family = 'page'", 25),
    ("vmalloc", "a.family = 'vmalloc'", 25),
    ("learned", "s.api_origin = 'learned'", 25),
    ("ifdef", "s.in_disabled_branch = 1", 20),
    ("other-family", "a.family NOT IN ('slab', 'devm', 'page', 'vmalloc')", 15),
]
USERSPACE = ("tools/", "scripts/", "usr/", "samples/")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: sample.py DB")
    db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
    rng = random.Random(SEED)
    taken, out = set(), []
    for name, cond, n in STRATA:
        rows = db.execute(
            "SELECT s.path, coalesce(s.flags_line, s.line) FROM sites s "
            "JOIN allocators a ON a.name = s.api "
            "WHERE a.kind = 'alloc' AND " + cond +
            " GROUP BY 1, 2 ORDER BY 1, 2").fetchall()
        rows = [r for r in rows if not r[0].startswith(USERSPACE)
                and r not in taken]
        pick = rng.sample(rows, min(n, len(rows)))
        taken.update(pick)
        out.extend(pick)
    rng.shuffle(out)
    for path, line in out:
        print("%s:%d" % (path, line))


if __name__ == "__main__":
    main()
