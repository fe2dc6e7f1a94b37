#!/usr/bin/env python3
"""Draw the hand-judging sample for the rules' precision from a 6.1 scan.

    rule_sample.py DB > items.tsv

A rule's precision is judged on the facts its findings assert, asked as
neutral questions so that a reader does not grade the tool's wording:
- cache items: every cache that reclaimable-without-shrinker or
  shrinker-without-reclaimable flags, plus a fixed-seed random set of the
  other caches (so that a reworked shrinker link, which flags other caches,
  still finds most of its findings already judged);
- param items: every gfp-param finding (up to 50, random);
- atomic items: every sleep-in-atomic finding (up to 50, random).
The DB must have had `gfpaudit rules --run`.  Output columns: id, kind,
path, line, subject (cache name, or function:parameter, or flags).
"""
import random
import sqlite3
import sys

SEED = 61
EXTRA_CACHES = 18
MAX_PER_RULE = 50
USERSPACE = ("tools/", "scripts/", "usr/", "samples/")


def pick(rng, rows, n):
    rows = sorted(set(rows))
    return rng.sample(rows, min(n, len(rows)))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: rule_sample.py DB")
    db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
    rng = random.Random(SEED)
    flagged = db.execute(
        "SELECT DISTINCT c.path, c.line, coalesce(c.name, c.variable) "
        "FROM findings f JOIN caches c ON c.path = f.path "
        "AND c.line = f.line WHERE f.rule IN "
        "('reclaimable-without-shrinker', 'shrinker-without-reclaimable')"
    ).fetchall()
    others = [r for r in db.execute(
        "SELECT path, line, coalesce(name, variable) FROM caches").fetchall()
        if r not in flagged and not r[0].startswith(USERSPACE)]
    items = [("cache",) + r for r in flagged]
    items += [("cache",) + r for r in pick(rng, others, EXTRA_CACHES)]
    param = db.execute(
        "SELECT f.path, f.line, s.function || ':' || "
        "substr(f.suggestion, 6) FROM findings f "
        "LEFT JOIN sites s ON s.id = f.site_id "
        "WHERE f.rule = 'gfp-param'").fetchall()
    items += [("param",) + r for r in pick(rng, param, MAX_PER_RULE)]
    atomic = db.execute(
        "SELECT f.path, f.line, coalesce(s.flags, '') FROM findings f "
        "LEFT JOIN sites s ON s.id = f.site_id "
        "WHERE f.rule = 'sleep-in-atomic'").fetchall()
    items += [("atomic",) + r for r in pick(rng, atomic, MAX_PER_RULE)]
    rng.shuffle(items)
    print("id\tkind\tpath\tline\tsubject")
    for i, (kind, path, line, subject) in enumerate(items, 1):
        print("%d\t%s\t%s\t%d\t%s" % (i, kind, path, line, subject))


if __name__ == "__main__":
    main()
