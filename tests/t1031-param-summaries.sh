#!/bin/sh
# Per-parameter summaries (functions.params / param_use) and the
# lifetime of a buffer handed to a function the file cannot see into
# (docs/classifiers.md, "what a function does with each pointer
# parameter").
. "$(dirname "$0")/lib.sh"

tree=$TMP/params
cp -r "$SRC_DIR/tests/fixtures/params" "$tree"
db=$TMP/p.db
ok "scan of the fixture" "$GFPAUDIT" scan --no-progress --db "$db" "$tree"

use() {
	sql "$db" "SELECT param_use FROM functions WHERE name = '$1'"
}
is "$(use req_set_input)" "BS-" "setter: borrows the request, stores the buffer"
is "$(use req_free)" "F" "free through a local copy behind if (p)"
is "$(use req_put)" "F" "macro handing its argument to a freeing function"
is "$(use fill_names)" "B-" "a local copy of the pointer walks the buffer: borrows"
is "$(use run_fill)" "BB" \
	"o->fill(0, buf): the other struct's .fill (no pointer there) has no vote"

lt() {
	sql "$db" "SELECT s.lifetime FROM sites s WHERE s.function = '$1'"
}
is "$(lt use_req)" "scoped" "borrowed, then freed by a helper: scoped"
is "$(lt use_req_macro)" "scoped" "freed by a helper through a macro: scoped"
is "$(lt keep_buf)" "stored" "handed to a setter that stores it: stored"
is "$(sql "$db" "SELECT held_across_sleep FROM sites WHERE function = 'via_ops'")" \
	1 "held across o->run(), whose functions (.run = ...) sleep"
done_testing
