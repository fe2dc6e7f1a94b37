#!/usr/bin/env python3
"""Score the rules' findings against judged facts of the same tree.

    rule_eval.py DB ANSWERS.tsv [--min RULE=PCT ...] [--list]

ANSWERS.tsv is the settled rule-judging file (bench/eval/rule_sample.py
draws the items, two readers answer them independently, settle.py settles
with a third read).  DB must have the rules' findings (rules --run).  A
finding is judged when its (path, line) is an item whose answer settles
it:
  reclaimable-without-shrinker  true when the cache has
                                SLAB_RECLAIM_ACCOUNT and no reclaim path
                                frees its objects (answer yes, answer2 no)
  shrinker-without-reclaimable  true when it lacks the flag and a reclaim
                                path frees its objects (no, yes)
  gfp-param                     true when the flags ignore the parameter
                                and should not (ignores)
  gfp-param/patch               the same findings as patches: right when
                                answer2 (the replacement keeps the
                                intent) is also yes
  sleep-in-atomic               true when the answer is yes
An `unknown` answer leaves a finding unjudged.  For each rule it prints the
judged findings, the true ones, the precision with its Wilson 95 %
interval, and for the cache rules the judged caches that it should have
flagged and did not.  --min fails (exit 1) when a rule's precision is
below PCT; --list prints every judged finding with its verdict.
"""
import math
import sqlite3
import sys


def wilson(k, n, z=1.96):
    if n == 0:
        return (0.0, 100.0)
    p = k / n
    d = 1 + z * z / n
    c = p + z * z / (2 * n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (100 * (c - h) / d, 100 * (c + h) / d)


def truth(rule, a):
    """True/False when the answers settle the finding, None otherwise."""
    ans, ans2 = a["answer"], a["answer2"]
    if rule == "reclaimable-without-shrinker":
        if ans == "unknown" or ans2 == "unknown":
            return None
        return ans == "yes" and ans2 == "no"
    if rule == "shrinker-without-reclaimable":
        if ans == "unknown" or ans2 == "unknown":
            return None
        return ans == "no" and ans2 == "yes"
    if rule == "gfp-param":
        return None if ans == "unknown" else ans == "ignores"
    if rule == "gfp-param/patch":
        if ans == "unknown" or (ans == "ignores" and ans2 == "unknown"):
            return None
        return ans == "ignores" and ans2 == "yes"
    if rule == "sleep-in-atomic":
        return None if ans == "unknown" else ans == "yes"
    return None


# scored name -> kind of item; NAME/patch scores NAME's findings as patches
KIND = {"reclaimable-without-shrinker": "cache",
        "shrinker-without-reclaimable": "cache",
        "gfp-param": "param", "gfp-param/patch": "param",
        "sleep-in-atomic": "atomic"}


def load(path):
    with open(path, encoding="utf-8") as f:
        head = f.readline().rstrip("\n").split("\t")
        rows = [dict(zip(head, l.rstrip("\n").split("\t"))) for l in f
                if l.strip()]
    return {(r["kind"], r["path"], int(r["line"])): r for r in rows}


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__.split("\n\n")[1])
    db_path, answers = args[0], load(args[1])
    mins, listing, i = {}, False, 2
    while i < len(args):
        if args[i] == "--min" and i + 1 < len(args):
            rule, pct = args[i + 1].split("=")
            mins[rule] = float(pct)
            i += 2
        elif args[i] == "--list":
            listing, i = True, i + 1
        else:
            sys.exit("rule_eval.py: unknown argument %s" % args[i])
    db = sqlite3.connect("file:%s?mode=ro" % db_path, uri=True)
    failed = 0
    print("rule\tfindings\tjudged\ttrue\tprecision\t95% interval\tmissed")
    for rule, kind in KIND.items():
        found = set(db.execute(
            "SELECT path, line FROM findings WHERE rule = ?",
            (rule.split("/")[0],)))
        judged = true = 0
        for path, line in sorted(found):
            a = answers.get((kind, path, line))
            t = truth(rule, a) if a else None
            if t is None:
                continue
            judged += 1
            true += t
            if listing:
                print("#\t%s\t%s:%d\t%s\t%s" % (rule, path, line,
                      "true" if t else "FALSE", a["note"]))
        missed = "-"
        if kind == "cache":
            missed = sum(1 for (k, p, l), a in answers.items()
                         if k == kind and truth(rule, a)
                         and (p, l) not in found)
        lo, hi = wilson(true, judged)
        prec = 100.0 * true / judged if judged else 0.0
        print("%s\t%d\t%d\t%d\t%.1f%%\t[%.0f, %.0f]\t%s"
              % (rule, len(found), judged, true, prec, lo, hi, missed))
        if rule in mins and (not judged or prec < mins[rule]):
            print("rule_eval.py: %s precision %.1f%% below %.0f%%"
                  % (rule, prec, mins[rule]), file=sys.stderr)
            failed = 1
    sys.exit(failed)


if __name__ == "__main__":
    main()
