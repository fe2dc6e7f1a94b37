#!/bin/sh
# make eval: the classifiers' accuracy on the hand-labelled 6.1 sites
# (tests/data/labels-6.1.tsv, then the held-out
# tests/data/labels-6.1-heldout.tsv and the third sample
# tests/data/labels-6.1-sample3.tsv) beside the constant-answer baseline,
# with a confusion matrix per column.  EVAL_DB=path reuses a scan.
. "$(dirname "$0")/lib.sh"

tree=$(linux61_pristine) || { echo "no 6.1 tree" >&2; exit 0; }
db=${EVAL_DB:-$TMP/eval.db}
[ -f "$db" ] || "$GFPAUDIT" scan -j "$JOBS" --no-progress --db "$db" "$tree" >&2
python3 "$SRC_DIR/bench/eval/eval.py" "$db" "$SRC_DIR/tests/data/labels-6.1.tsv" --matrix |
	tee "$TMP/eval.txt"
for col in lifetime held_across_sleep context gfp_param; do
	awk -v c="$col" '$1 == c { print $3 " (constant " $4 ")" }' "$TMP/eval.txt" |
		while read -r fig; do result "accuracy $col" "$fig" "-" "hand labels, 6.1"; done
done
# the held-out sample: sites no classifier change was derived from
python3 "$SRC_DIR/bench/eval/eval.py" "$db" \
	"$SRC_DIR/tests/data/labels-6.1-heldout.tsv" --matrix | tee "$TMP/heldout.txt"
for col in lifetime held_across_sleep context gfp_param; do
	awk -v c="$col" '$1 == c { print $3 " (constant " $4 ")" }' "$TMP/heldout.txt" |
		while read -r fig; do result "held-out accuracy $col" "$fig" "-" "hand labels, 6.1"; done
done
# the third sample: drawn in session 29 from the sites neither of the
# others took, read before the changes its misses led to
python3 "$SRC_DIR/bench/eval/eval.py" "$db" \
	"$SRC_DIR/tests/data/labels-6.1-sample3.tsv" --matrix | tee "$TMP/sample3.txt"
for col in lifetime held_across_sleep context gfp_param; do
	awk -v c="$col" '$1 == c { print $3 " (constant " $4 ")" }' "$TMP/sample3.txt" |
		while read -r fig; do result "third-sample accuracy $col" "$fig" "-" "hand labels, 6.1"; done
done
# the error-path check: sites the error-path frees turned to `yes`
python3 "$SRC_DIR/bench/eval/eval.py" "$db" \
	"$SRC_DIR/tests/data/labels-6.1-errpath.tsv" | tee "$TMP/errpath.txt"
awk '$1 == "held_across_sleep" { print $3 }' "$TMP/errpath.txt" |
	while read -r fig; do result "error-path check held_across_sleep" "$fig" "-" "hand labels, 6.1"; done
