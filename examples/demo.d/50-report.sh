#!/bin/sh
# Demo step 50: the reports, in every format, from the demo database.
set -eu
for fmt in md html sarif gcc; do
	ext=$fmt
	[ "$fmt" = gcc ] && ext=txt
	"$GFPAUDIT" report --db "$DB" --format "$fmt" -o "$OUT/report.$ext"
	echo "report: $OUT/report.$ext"
done
# The first findings, as an editor would see them.
head -5 "$OUT/report.txt"
