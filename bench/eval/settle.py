#!/usr/bin/env python3
"""Settle two independent readers' labels, with a third read where needed.

    settle.py disagreements A.tsv B.tsv          > sites-for-third-read.txt
    settle.py final A.tsv B.tsv C.tsv [...]      > labels.tsv
    settle.py final-partial A.tsv B.tsv C.tsv    > labels.tsv

Each file is in the labelling brief's format (one row per path:line; A and B
may be split in several files: pass A1,A2 as one comma-separated argument),
or in the rule-judging brief's (one row per id, judged columns answer and
answer2): the header line tells which.
`disagreements` lists the path:line of every site where A and B differ in
one of the judged columns (lifetime, held_across_sleep, context,
gfp_param).  `final` takes, column by column, the value two of the three
readers gave (A's row for the other columns); where all three differ the
column is `unknown` (`-` for gfp_param is a value like any other).
`final-partial` is `final` for a sample where B judged only some of A's
items and the third read did not reach every disagreement: items B did
not judge are left out, and a disagreement without a third read is
`unknown` (`split:COLS`), never one reader's answer.  The
`settled` column says how: `2/2` both readers agreed on every judged
column, else `3rd:COLS` the columns a third read decided, `split:COLS`
those where no two agreed.
"""
import sys

# header column that names the format -> (key columns, judged columns,
# the column whose third-read value brings its evidence along, evidence)
FORMATS = {
    "lifetime": (("file", "line"),
                 ("lifetime", "held_across_sleep", "context", "gfp_param"),
                 "lifetime", ("free_fn", "evidence_line", "note")),
    "answer": (("id",), ("answer", "answer2"), "answer",
               ("evidence", "note")),
}
KEY, JUDGED, LEAD, EVIDENCE = FORMATS["lifetime"]


def use_format(head):
    global KEY, JUDGED, LEAD, EVIDENCE
    for col, fmt in FORMATS.items():
        if col in head:
            KEY, JUDGED, LEAD, EVIDENCE = fmt
            return
    sys.exit("settle.py: unknown label format: " + " ".join(head))


def load(arg):
    head, rows = None, {}
    for path in arg.split(","):
        with open(path, encoding="utf-8") as f:
            h = f.readline().rstrip("\n").split("\t")
            if head is None:
                head = h
                use_format(h)
            for n, line in enumerate(f, 2):
                if not line.strip():
                    continue
                c = line.rstrip("\n").split("\t")
                if len(c) != len(h):
                    sys.exit("settle.py: %s:%d: %d columns, want %d"
                             % (path, n, len(c), len(h)))
                r = {k: v.strip() for k, v in zip(h, c)}
                rows[":".join(r[k] for k in KEY)] = r
    return head, rows


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ("disagreements", "final",
                                                "final-partial"):
        sys.exit(__doc__.split("\n\n")[1])
    head, a = load(sys.argv[2])
    _, b = load(sys.argv[3])
    partial = sys.argv[1] == "final-partial"
    if partial:
        a = {k: v for k, v in a.items() if k in b}
    missing = sorted(set(a) ^ set(b))
    if missing:
        sys.exit("settle.py: sites only one reader labelled: "
                 + ", ".join(missing[:5]))
    differ = [k for k in a if any(a[k][c] != b[k][c] for c in JUDGED)]
    if sys.argv[1] == "disagreements":
        print("\n".join(differ))
        return
    _, c = load(sys.argv[4]) if len(sys.argv) > 4 else (None, {})
    print("\t".join(head + ["settled"]))
    for k, ra in a.items():
        out, third, split = dict(ra), [], []
        for col in JUDGED:
            if ra[col] == b[k][col]:
                continue
            if k not in c:
                if not partial:
                    sys.exit("settle.py: %s needs a third read" % k)
                out[col] = "unknown"
                split.append(col)
                continue
            votes = [ra[col], b[k][col], c[k][col]]
            top = max(set(votes), key=votes.count)
            if votes.count(top) >= 2:
                out[col] = top
                third.append(col)
            else:
                out[col] = "unknown"
                split.append(col)
            # The evidence and note belong to the lead column.
            if col == LEAD and out[col] == c[k][col]:
                for f in EVIDENCE:
                    out[f] = c[k][f]
        how = ["3rd:" + ",".join(third)] if third else []
        how += ["split:" + ",".join(split)] if split else []
        out["settled"] = " ".join(how) or "2/2"
        print("\t".join(out[h] for h in head + ["settled"]))


if __name__ == "__main__":
    main()
