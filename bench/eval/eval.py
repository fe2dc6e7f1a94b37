#!/usr/bin/env python3
"""Score the classifiers of a scan against hand labels of the same tree.

    eval.py DB LABELS.tsv [--min COLUMN=PCT ...] [--margin COLUMN=PTS ...]
            [--matrix] [--misses COLUMN]

LABELS.tsv is tests/data/labels-6.1.tsv's format (labelling brief columns,
settled by a third read where two readers disagreed).  Each label is matched
to the site of DB at the same path whose flags (or, without flags, whose
call) are on the label's line.  For lifetime, held_across_sleep, context
and gfp_param it prints the accuracy over the matched sites beside the
constant-answer baseline (the most frequent label, answered everywhere),
and with --matrix a confusion matrix (rows: label, columns: tool).  A label
is compared as written: a site the code does not settle is labelled
`unknown`, and the tool is right there only when it says so too.

gfp_param: readers write the enclosing function's gfp_t parameter whenever
it has one (the brief: "`-` if the function has no gfp_t parameter"); the
column says it where the site ignores it (its flags, as written or through
a local variable, do not name it).  So a labelled name that the site's
flags mention is compared as `-`.

--min COLUMN=PCT fails (exit 1) when COLUMN's accuracy is below PCT;
--margin COLUMN=PTS when it is less than PTS points above the baseline.
Unmatched labels are listed and count as misses in every column.
"""
import collections
import re
import sqlite3
import sys

COLUMNS = ("lifetime", "held_across_sleep", "context", "gfp_param")


def tool_value(col, v):
    if col == "held_across_sleep":
        return {1: "yes", 0: "no"}.get(v, "unknown")
    if col == "gfp_param":
        return v if v else "-"
    return v if v else "unknown"


def load_labels(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        head = f.readline().rstrip("\n").split("\t")
        for n, line in enumerate(f, 2):
            if not line.strip() or line.startswith("#"):
                continue
            cells = line.rstrip("\n").split("\t")
            if len(cells) != len(head):
                sys.exit("eval.py: %s:%d: %d columns, want %d"
                         % (path, n, len(cells), len(head)))
            rows.append(dict(zip(head, cells)))
    return rows


def find_site(db, file, line):
    q = ("SELECT lifetime, held_across_sleep, context, gfp_param, api, "
         "line, coalesce(flags, '') || ' ' || coalesce(flags_resolved, '') "
         "FROM sites WHERE path = ? AND coalesce(flags_line, line) = ? "
         "ORDER BY line DESC, col LIMIT 1")
    r = db.execute(q, (file, line)).fetchone()
    if r:
        return r
    # The label's line may be the call's first line (a call whose flags
    # are on a later line, or a site found at its call).
    return db.execute(q.replace("coalesce(flags_line, line)", "line"),
                      (file, line)).fetchone()


def expected(col, lab, site):
    """The label as the column states it (see gfp_param above)."""
    v = lab[col]
    if col == "gfp_param" and v != "-" and site and \
            re.search(r"\b%s\b" % re.escape(v), site[6]):
        return "-"
    return v


def parse_opts(argv):
    opts = {"min": {}, "margin": {}, "matrix": False, "misses": []}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--matrix":
            opts["matrix"] = True
        elif a in ("--min", "--margin", "--misses") and i + 1 < len(argv):
            i += 1
            if a == "--misses":
                opts["misses"].append(argv[i])
            else:
                col, _, pct = argv[i].partition("=")
                if col not in COLUMNS:
                    sys.exit("eval.py: unknown column '%s'" % col)
                opts[a[2:]][col] = float(pct)
        else:
            sys.exit("eval.py: unknown option '%s'" % a)
        i += 1
    return opts


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.split("\n\n")[1])
    db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
    labels = load_labels(sys.argv[2])
    opts = parse_opts(sys.argv[3:])
    pairs = {c: [] for c in COLUMNS}
    rows = []
    unmatched = 0
    for lab in labels:
        site = find_site(db, lab["file"], int(lab["line"]))
        if not site:
            unmatched += 1
            print("# no site at %s:%s" % (lab["file"], lab["line"]))
        for i, col in enumerate(COLUMNS):
            got = tool_value(col, site[i]) if site else "(no site)"
            pairs[col].append((expected(col, lab, site), got))
        rows.append((lab, site))
    print("%d labels, %d matched to a site" % (len(labels),
                                                len(labels) - unmatched))
    print("%-18s %5s %9s %9s  %s" % ("column", "n", "accuracy", "baseline",
                                      "constant answer"))
    failed = []
    for col in COLUMNS:
        p = pairs[col]
        n = len(p)
        acc = 100.0 * sum(a == b for a, b in p) / n if n else 0
        common, cnt = collections.Counter(a for a, _ in p).most_common(1)[0]
        base = 100.0 * cnt / n if n else 0
        print("%-18s %5d %8.1f%% %8.1f%%  %s" % (col, n, acc, base, common))
        if col in opts["min"] and acc < opts["min"][col]:
            failed.append("%s %.1f%% < %.1f%%" % (col, acc,
                                                  opts["min"][col]))
        if col in opts["margin"] and acc - base < opts["margin"][col]:
            failed.append("%s %.1f points above the baseline < %.1f"
                          % (col, acc - base, opts["margin"][col]))
    if opts["matrix"]:
        for col in COLUMNS:
            print_matrix(col, pairs[col])
    for col in opts["misses"]:
        i = COLUMNS.index(col)
        print("\n%s misses (label / tool):" % col)
        for lab, site in rows:
            got = tool_value(col, site[i]) if site else "(no site)"
            if got != expected(col, lab, site):
                print("  %s:%s %s  %s / %s  -- %s" % (
                    lab["file"], lab["line"], lab["function"],
                    expected(col, lab, site), got, lab["note"]))
    for f in failed:
        print("eval.py: below target: " + f, file=sys.stderr)
    return 1 if failed else 0


def print_matrix(col, p):
    if col == "gfp_param":
        p = [("-" if a == "-" else "param", "-" if b == "-" else
              ("param" if b == a else b if b == "(no site)" else "other"))
             for a, b in p]
    labs = sorted({a for a, _ in p})
    tools = sorted({b for _, b in p})
    print("\n%s (rows: label, columns: tool)" % col)
    print("%-16s" % "" + "".join("%10s" % t[:9] for t in tools))
    for a in labs:
        print("%-16s" % a[:15] + "".join(
            "%10d" % sum(1 for x, y in p if x == a and y == t)
            for t in tools))


if __name__ == "__main__":
    sys.exit(main())
