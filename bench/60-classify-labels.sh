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

# sample NAME LABELS WHAT: eval.py's table and matrices, and one result
# line per column, "WHAT accuracy COLUMN"
sample() {
	python3 "$SRC_DIR/bench/eval/eval.py" "$db" "$2" --matrix |
		tee "$TMP/$1.txt"
	for col in lifetime held_across_sleep context gfp_param; do
		awk -v c="$col" '$1 == c && $3 ~ /%$/ { print $3 " (constant " $4 ")" }' \
			"$TMP/$1.txt" |
			while read -r fig; do
				result "${3}accuracy $col" "$fig" "-" "hand labels, 6.1"
			done
	done
}
sample eval "$SRC_DIR/tests/data/labels-6.1.tsv" ""
# the held-out sample: sites no classifier change was derived from
sample heldout "$SRC_DIR/tests/data/labels-6.1-heldout.tsv" "held-out "
# the third sample: drawn in session 29 from the sites neither of the
# others took, read before the changes its misses led to
sample sample3 "$SRC_DIR/tests/data/labels-6.1-sample3.tsv" "third-sample "
# the second held-out sample: drawn after session 29's changes
sample heldout2 "$SRC_DIR/tests/data/labels-6.1-heldout2.tsv" "held-out-2 "
# the third held-out sample: drawn in session 30 (seed 1207)
sample heldout3 "$SRC_DIR/tests/data/labels-6.1-heldout3.tsv" "held-out-3 "
# the error-path check: sites the error-path frees turned to `yes`
python3 "$SRC_DIR/bench/eval/eval.py" "$db" \
	"$SRC_DIR/tests/data/labels-6.1-errpath.tsv" | tee "$TMP/errpath.txt"
awk '$1 == "held_across_sleep" { print $3 }' "$TMP/errpath.txt" |
	while read -r fig; do result "error-path check held_across_sleep" "$fig" "-" "hand labels, 6.1"; done
