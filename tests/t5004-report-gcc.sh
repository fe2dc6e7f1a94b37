#!/bin/sh
# gfpaudit report --format gcc: one "path:line:col: level: message [rule]"
# line per finding, the form editors and CI annotate.
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib/report-fixture.sh"

db=$TMP/r.db
report_fixture "$db" || { echo "Bail out! fixture"; exit 1; }
out=$("$GFPAUDIT" report --db "$db" --format gcc)
is "$?" 0 "gcc report exits 0"
is "$(printf '%s\n' "$out" | wc -l)" 4 "one line per finding (a newline in a message is folded)"
is "$(printf '%s\n' "$out" | sed -n 2p)" \
	"fs/proc/base.c:10:20: warning: GFP_TEMPORARY is GFP_KERNEL | __GFP_RECLAIMABLE; use GFP_KERNEL [temporary-to-kernel]" \
	"the exact format"
n=$(printf '%s\n' "$out" | grep -cE '^[^:]+:[0-9]+:[0-9]+: (error|warning|note): .* \[[a-z-]+\]$')
is "$n" 4 "every line parses as a gcc diagnostic"
like "$out" "fs/proc/base.c:30:2: error: " "severity error prints as error"
like "$out" "drivers/x/<b>.c:1:1: note: " "severity note prints as note"
# vim's default errorformat and emacs' compile mode use exactly this.
first=$(printf '%s\n' "$out" | head -1 | cut -d: -f1-3)
is "$first" "drivers/x/<b>.c:1:1" "sorted by path, line, column"
done_testing
