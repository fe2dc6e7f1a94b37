#!/bin/sh
# simulate --trace: trace_pipe and perf script layouts, version-dependent
# pfn= and migratetype numbering, unparseable lines counted and reported.
. "$(dirname "$0")/lib.sh"
FX=$TESTS_DIR/fixtures/trace
val() { awk -F'\t' -v p="$2" -v m="$3" '$1 == p && $2 == m { print $3 }' "$1"; }

# 6.1 trace_pipe: 3 allocs (+1 failed, page=(null)), 2 frees + 1 batched
# (one of a page allocated before the trace), 1 extfrag, 1 sched_switch,
# a decimal pfn (wrong for 6.1) and a garbage line.
"$GFPAUDIT" simulate --trace "$FX/trace_pipe.6.1" --tsv --pages 8192 \
	--policy 6.1 >"$TMP/t61.tsv" 2>"$TMP/t61.err"
is "$?" "0" "6.1 trace replays"
err=$(cat "$TMP/t61.err")
like "$err" "kernel 6.1 \(assumed\)" "no version: 6.1 assumed and said"
like "$err" "3 mm_page_alloc, 2 mm_page_free, 1 mm_page_free_batched, 1 mm_page_alloc_extfrag \(0 fragmenting, 1 change_ownership\)" \
	"event counts"
like "$err" "1 failed allocations, 1 other events, 12 comments, 2 unparseable" \
	"failed, other, comments and unparseable counted"
like "$err" "trace_pipe.6.1:22: first unparseable line: pfn= is decimal, but this kernel prints 0x%lx" \
	"first unparseable line named with file:line and why"
is "$(val "$TMP/t61.tsv" 6.1 events)" "7" "7 events replayed"
is "$(val "$TMP/t61.tsv" 6.1 unparseable_lines)" "2" "unparseable lines are a metric too"
is "$(val "$TMP/t61.tsv" 6.1 unknown_frees)" "1" "free of a page allocated before the trace"
is "$(val "$TMP/t61.tsv" 6.1 kernel_change_ownership)" "1" "kernel's extfrag change_ownership"

# The same trace read as 4.13: every 0x pfn is now the wrong format, and
# a trace mostly unparseable is not replayed: exit 2, the first bad line
# named.
"$GFPAUDIT" simulate --trace "$FX/trace_pipe.6.1" --kernel-version 4.13 \
	--tsv --pages 8192 --policy 6.1 >"$TMP/t413.tsv" 2>"$TMP/t413.err"
is "$?" "2" "a mostly unparseable trace exits 2"
like "$(cat "$TMP/t413.err")" "kernel 4.13 \(option\).*, 9 unparseable" \
	"--kernel-version 4.13 wants decimal pfns"
like "$(cat "$TMP/t413.err")" "trace_pipe.6.1:13: first unparseable line: pfn= is hex, but this kernel prints it in decimal: \"  *bash-1261 " \
	"the reason is given, with the line"
like "$(tail -n 1 "$TMP/t413.err")" "^gfpaudit simulate: .*trace_pipe.6.1: 9 of 10 kmem event lines unparseable, the first is line 13" \
	"the error line names the first bad line"
[ -s "$TMP/t413.tsv" ]
is "$?" "1" "nothing replayed"

# perf script, version from its header; the 0x line is the odd one out.
"$GFPAUDIT" simulate --trace "$FX/perf_script.4.13" --tsv --pages 8192 \
	--policy 6.1 >"$TMP/p.tsv" 2>"$TMP/p.err"
like "$(cat "$TMP/p.err")" "kernel 4.13.0-1-amd64 \(trace header\)" "version from # os release"
like "$(cat "$TMP/p.err")" "3 mm_page_alloc, 1 mm_page_free, 1 mm_page_free_batched.*1 unparseable" \
	"perf script kmem: events"
is "$(val "$TMP/p.tsv" 6.1 unknown_frees)" "0" "both frees matched their allocations"

# migratetype numbering: 3.10 (before 4.4) has 4 = ISOLATE; 6.1 has no 4
"$GFPAUDIT" simulate --trace "$FX/trace_pipe.3.10" --kernel-version 3.10 \
	--pages 8192 --policy 2.6.24 >/dev/null 2>"$TMP/o.err"
like "$(cat "$TMP/o.err")" "3 mm_page_alloc.*0 unparseable" "3.10: migratetype 4 is valid"
"$GFPAUDIT" simulate --trace "$FX/trace_pipe.3.10" --kernel-version 6.1 \
	--pages 8192 --policy 6.1 >/dev/null 2>"$TMP/n.err"
like "$(cat "$TMP/n.err")" "0 mm_page_alloc.*, 3 unparseable" "6.1 rules reject decimal pfns"

# A generated 6.1 trace: the mobility numbering decides mixed pageblocks.
"$TOOLS/gen_trace" 200000 6.1 7 >"$TMP/gen.trace"
"$GFPAUDIT" simulate --trace "$TMP/gen.trace" --tsv --pages 65536 >"$TMP/g.tsv" 2>/dev/null
is "$(val "$TMP/g.tsv" 6.1 events)" "200000" "generated trace: every event replayed"
is "$(val "$TMP/g.tsv" 6.1 unknown_frees)" "0" "generated trace: every free matched"
is "$(val "$TMP/g.tsv" 6.1 model_alloc_failures)" "0" "generated trace fits the zone"
db=$TMP/t.db
exit_is 0 "trace results into the database" "$GFPAUDIT" simulate --trace \
	"$TMP/gen.trace" --pages 65536 --db "$db"
is "$(sql "$db" "SELECT count(DISTINCT policy) FROM sim_results WHERE experiment = 'trace'")" \
	"3" "sim_results rows for the three policies"

exit_is 2 "missing trace file" "$GFPAUDIT" simulate --trace "$TMP/none"
printf 'garbage\nmore garbage\n' >"$TMP/junk"
exit_is 2 "a trace with no kmem events is an error" "$GFPAUDIT" simulate --trace "$TMP/junk"
err=$("$GFPAUDIT" simulate --trace "$TMP/junk" 2>&1)
like "$err" "2 unparseable" "junk lines are counted before the error"
exit_is 2 "bad --kernel-version" "$GFPAUDIT" simulate --trace "$FX/trace_pipe.6.1" \
	--kernel-version banana
done_testing
