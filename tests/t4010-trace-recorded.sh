#!/bin/sh
# simulate --trace on kmem traces recorded here, at test time, by the tools
# users have: perf record + perf script, trace-cmd record (trace.dat, and
# trace-cmd report's text), and tracefs's own trace file.  Hand-written
# fixtures (t4003) only hold the layouts their author knew of: every perf
# script mm_page_free line was unparseable once, and no test saw it.  Here
# every event line must be read, none unparseable, and the trace.dat
# reader must count what trace-cmd report prints.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip_all "recording kmem tracepoints needs root"

# A small workload that allocates and frees pages: page cache, then freed.
cat >"$TMP/work.sh" <<WORK
dd if=/dev/zero of="$TMP/w" bs=64k count=64 2>/dev/null
rm -f "$TMP/w"
WORK

# "N NAME" of the summary line ("N mm_page_free," is not _batched).
count() {
	grep '^gfpaudit simulate: .* lines\|records, ' "$1" |
		grep -oE "[0-9]+ $2(,|\$| \\()" | head -n 1 | grep -oE '^[0-9]+'
}

# Replays FILE ($1, label $2) and checks that the counts are those of
# the text ($3: trace events as text, or the same file) and that every
# event line or record was read.
check_counts() {
	"$GFPAUDIT" simulate --trace "$1" --policy 6.1 --pages 65536 --tsv \
		>"$TMP/out.tsv" 2>"$TMP/err"
	is "$?" "0" "$2: replayed"
	allocs=$(grep -cE '(^| )(kmem:)?mm_page_alloc: ' "$3")
	frees=$(grep -cE '(^| )(kmem:)?mm_page_free: ' "$3")
	got_a=$(($(count "$TMP/err" mm_page_alloc) + \
		$(count "$TMP/err" 'failed allocations')))
	is "$got_a $(count "$TMP/err" mm_page_free)" "$allocs $frees" \
		"$2: mm_page_alloc and mm_page_free as the text has them"
	is "$(count "$TMP/err" unparseable)" "0" "$2: none unparseable"
	[ "$allocs" -gt 0 ] && [ "$frees" -gt 0 ]
	is "$?" "0" "$2: the workload's allocations and frees were recorded"
	sed 's/^/# /' "$TMP/err" | head -n 3
}

# --- perf record + perf script ------------------------------------------
if ! command -v perf >/dev/null; then
	skip 11 "perf is not installed (Debian: linux-perf)"
elif ! perf record -q -e kmem:mm_page_alloc -e kmem:mm_page_free -a \
	-o "$TMP/perf.data" -- sh "$TMP/work.sh" >"$TMP/perf.log" 2>&1 ||
	! perf script --header -i "$TMP/perf.data" >"$TMP/perf.txt" \
		2>>"$TMP/perf.log"; then
	skip 11 "perf cannot record kmem events here: $(head -n 1 "$TMP/perf.log")"
else
	check_counts "$TMP/perf.txt" "perf script --header" "$TMP/perf.txt"
	like "$(cat "$TMP/err")" "kernel $(uname -r) \\(trace header\\)" \
		"perf script --header: the kernel from its header"
	perf script -i "$TMP/perf.data" >"$TMP/perf-plain.txt" 2>/dev/null
	check_counts "$TMP/perf-plain.txt" "perf script" "$TMP/perf-plain.txt"
	exit_is 2 "perf.data itself is refused" "$GFPAUDIT" simulate \
		--trace "$TMP/perf.data" --policy 6.1
	like "$(cat "$TMP/.out")" "^gfpaudit simulate: .*perf.data: a perf.data file.*perf script --header" \
		"perf.data: one line naming perf script as the way in"
fi

# --- trace-cmd record: trace.dat, and trace-cmd report -------------------
# -B: a buffer instance of our own, not the top-level one others may use.
# -d and --no-filter: trace-cmd 3.1.6 dies where function tracing cannot
# be enabled, or set_ftrace_pid cannot be opened (both refused in some VMs
# and containers); neither changes which kmem events are recorded.  Its
# exit status is not the judge (it fails to reset what it could not set):
# the file trace-cmd report reads is.
inst=gfpaudit-t4010-$$
tracing=/sys/kernel/tracing
[ -d "$tracing/instances" ] || tracing=/sys/kernel/debug/tracing
if ! command -v trace-cmd >/dev/null; then
	skip 26 "trace-cmd is not installed"
else
	trace-cmd record -q -d --no-filter -B "$inst" -e kmem:mm_page_alloc \
		-e kmem:mm_page_free -o "$TMP/trace.dat" sh "$TMP/work.sh" \
		>"$TMP/tc.log" 2>&1
	rmdir "$tracing/instances/$inst" 2>/dev/null
	if ! trace-cmd report -i "$TMP/trace.dat" >"$TMP/report.txt" \
		2>>"$TMP/tc.log" || ! grep -q ' mm_page_' "$TMP/report.txt"; then
		skip 26 "trace-cmd cannot record kmem events here: $(grep -v '^$' "$TMP/tc.log" | head -n 1)"
	else
		# no .dat name: the reader is chosen by the magic bytes
		cp "$TMP/trace.dat" "$TMP/recording"
		check_counts "$TMP/recording" "trace.dat" "$TMP/report.txt"
		like "$(cat "$TMP/err")" "\\(trace format: [^)]*\\): [0-9]+ records" \
			"trace.dat: records, and the kernel dated by its formats"
		check_counts "$TMP/report.txt" "trace-cmd report" \
			"$TMP/report.txt"
		for opt in -l --ts-diff -R -t; do
			trace-cmd report $opt -i "$TMP/trace.dat" \
				>"$TMP/report$opt.txt" 2>/dev/null
			check_counts "$TMP/report$opt.txt" \
				"trace-cmd report $opt" "$TMP/report$opt.txt"
		done
		# the replay's event count is the file's
		is "$(awk -F'\t' '$2 == "events" { print $3 }' "$TMP/out.tsv")" \
			"$(($(grep -c ' mm_page_' "$TMP/report.txt") - \
			$(count "$TMP/err" 'failed allocations')))" \
			"trace-cmd report -t: every event replayed"
	fi
fi

# --- tracefs: the kernel's own text, under the options that change it ---
kinst=$tracing/instances/gfpaudit-t4010-k$$
if ! mkdir "$kinst" 2>/dev/null; then
	skip 16 "cannot create a tracefs instance under $tracing"
else
	trap 'echo 0 >"$kinst/tracing_on"; echo 0 >"$kinst/events/enable";
		rmdir "$kinst"; rm -rf "$TMP"' EXIT
	echo 1 >"$kinst/events/kmem/mm_page_alloc/enable"
	echo 1 >"$kinst/events/kmem/mm_page_free/enable"
	for opt in plain latency-format nocontext-info clock=counter; do
		echo >"$kinst/trace"
		case $opt in
		clock=*) echo "${opt#clock=}" >"$kinst/trace_clock" ;;
		plain) ;;
		*) echo "$opt" >"$kinst/trace_options" ;;
		esac
		echo 1 >"$kinst/tracing_on"
		sh "$TMP/work.sh"
		echo 0 >"$kinst/tracing_on"
		cat "$kinst/trace" >"$TMP/tracefs-$opt.txt"
		case $opt in
		clock=*) echo local >"$kinst/trace_clock" ;;
		no*) echo "${opt#no}" >"$kinst/trace_options" ;;
		plain) ;;
		*) echo "no$opt" >"$kinst/trace_options" ;;
		esac
		check_counts "$TMP/tracefs-$opt.txt" "tracefs trace ($opt)" \
			"$TMP/tracefs-$opt.txt"
	done
fi
done_testing
