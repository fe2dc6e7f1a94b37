#!/usr/bin/env python3
"""Draw the hand-labelling sample of allocation sites from a scan of a tree.

    sample.py DB > sites.txt
    sample.py --seed N --scale F --exclude LABELS.tsv DB > held-out.txt

The population is every allocation call (allocators.kind 'alloc', no cache
creation) outside the user-space parts of the tree (tools/, scripts/, usr/,
samples/), one site per (path, line of its flags): a label is read from the
code at that line.  The draw is a fixed-seed random sample, stratified so that
the kinds the classifiers handle differently each get enough sites to show up
in the figures: a plain random part, then the page allocator, the vmalloc
family, learned wrappers and sites in inactive #if branches, each filled from
what the previous strata did not take.  Output: path:line, shuffled, one a
line; the same database gives the same list.

A held-out sample (sites no rule or classifier change was derived from):
another seed, every stratum scaled by F, and the sites of an existing labels
file left out of the population.
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


def parse_args(argv):
    opts = {"seed": SEED, "scale": 1.0, "exclude": None}
    usage = "usage: sample.py [--seed N] [--scale F] [--exclude TSV] DB"
    args = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--seed", "--scale", "--exclude"):
            if i + 1 >= len(argv):
                sys.exit("sample.py: %s needs a value" % a)
            try:
                opts[a[2:]] = {"--seed": int, "--scale": float,
                               "--exclude": str}[a](argv[i + 1])
            except ValueError:
                sys.exit("sample.py: %s: bad value %r" % (a, argv[i + 1]))
            i += 2
            continue
        args.append(a)
        i += 1
    if len(args) != 1:
        sys.exit(usage)
    return opts, args[0]


def excluded(path):
    """The (file, line) pairs of a labels TSV (its first two columns)."""
    try:
        with open(path) as f:
            rows = [l.rstrip("\n").split("\t") for l in f]
    except OSError as e:
        sys.exit("sample.py: %s: %s" % (path, e.strerror))
    return {(r[0], int(r[1])) for r in rows[1:] if len(r) > 1
            and r[1].isdigit()}


def main():
    opts, dbpath = parse_args(sys.argv[1:])
    db = sqlite3.connect("file:%s?mode=ro" % dbpath, uri=True)
    rng = random.Random(opts["seed"])
    taken = excluded(opts["exclude"]) if opts["exclude"] else set()
    out = []
    for name, cond, n in STRATA:
        n = max(1, round(n * opts["scale"]))
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
