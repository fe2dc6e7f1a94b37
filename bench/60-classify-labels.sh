#!/bin/sh
# make eval: the classifiers' accuracy on the hand-labelled 6.1 sites
# (tests/data/labels-6.1*.tsv: the first sample, the third, every
# held-out sample in the order drawn, and all of them pooled) beside the
# constant-answer baseline, with a confusion matrix per column.
# EVAL_DB=path reuses a scan.
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
data=$SRC_DIR/tests/data
sample eval "$data/labels-6.1.tsv" ""
# the third sample: drawn in session 29 from the sites neither of the
# others took, read before the changes its misses led to
sample sample3 "$data/labels-6.1-sample3.tsv" "third-sample "
# the held-out samples, each drawn with its own seed after a session's
# changes (docs/classifiers.md)
for f in $(ls "$data"/labels-6.1-heldout*.tsv | sort -V); do
	n=$(basename "$f" .tsv)
	n=${n#labels-6.1-}
	sample "$n" "$f" "$n "
done
# all of them pooled (the error-path check is no random sample)
for f in "$data"/labels-6.1*.tsv; do
	case $f in *errpath*) ;; *) tail -n +2 "$f" | cut -f 1-12 ;; esac
done >"$TMP/pooled.body"
{ head -n 1 "$data/labels-6.1.tsv" | cut -f 1-12; cat "$TMP/pooled.body"; } \
	>"$TMP/pooled.tsv"
sample pooled "$TMP/pooled.tsv" "pooled "
# the error-path check: sites the error-path frees turned to `yes`
python3 "$SRC_DIR/bench/eval/eval.py" "$db" \
	"$SRC_DIR/tests/data/labels-6.1-errpath.tsv" | tee "$TMP/errpath.txt"
awk '$1 == "held_across_sleep" { print $3 }' "$TMP/errpath.txt" |
	while read -r fig; do result "error-path check held_across_sleep" "$fig" "-" "hand labels, 6.1"; done
