#!/bin/sh
# The allocator model against a booted 6.1 kernel (issue #20): tools/kboot
# boots Debian's linux-image-6.1.0-*-amd64 under qemu TCG with each
# workload of tools/workloads/, and simulate --start/--compare replays
# the trace from the first snapshot.  Each block row must meet the issue's
# target (within max(2 blocks, a quarter of the change), and closer than
# "nothing changed"), and the fallback count must be within 25 %.  The
# kernel is downloaded once (GFPAUDIT_KERNEL_CACHE).
. "$(dirname "$0")/lib.sh"

for p in qemu-system-x86_64 busybox cpio apt-get; do
	command -v $p >/dev/null 2>&1 || skip_all "$p is not installed (make deps)"
done
# The download is the only part that may be out of reach: skip, saying so.
if ! "$SRC_DIR/tools/kboot" -o "$TMP/probe" --timeout 240 \
	"$SRC_DIR/tools/workloads/pagecache.sh" >"$TMP/probe.err" 2>&1 &&
	grep -q "apt-get download\|apt knows no" "$TMP/probe.err"; then
	skip_all "the 6.1 kernel image cannot be had: $(head -n 1 "$TMP/probe.err")"
fi

for w in pagecache dentry pipes; do
	if [ $w = pagecache ]; then
		cp -r "$TMP/probe" "$TMP/$w"
		ok "kboot $w (the workload ran, snapshots and trace came back)" \
			test -s "$TMP/$w/trace" -a -s "$TMP/$w/pti1"
	else
		ok "kboot $w" "$SRC_DIR/tools/kboot" -o "$TMP/$w" --timeout 240 \
			"$SRC_DIR/tools/workloads/$w.sh"
	fi
	"$GFPAUDIT" simulate --trace "$TMP/$w/trace" --start "$TMP/$w/pti0" \
		--compare "$TMP/$w/pti1" --tsv >"$TMP/$w.tsv" 2>"$TMP/$w.err"
	is "$?" 0 "$w: simulate --start --compare"
	sed 's/^/# /' "$TMP/$w.tsv" | grep -E "blocks|fallbacks|steals|free_pages"
	sed 's/^/# /' "$TMP/$w.err" | tail -n 1
	is "$(awk -F'\t' '$3 == "blocks" && $8 != "yes"' "$TMP/$w.tsv")" "" \
		"$w: every DMA32 block count within its target"
	is "$(awk -F'\t' '$3 == "fallbacks" { print $8 }' "$TMP/$w.tsv")" yes \
		"$w: fallbacks within 25 %"
done

# Which functions' allocations fell back: a boot with kernel stacks, and
# a scan of the parts of the same tree the dentry workload exercises.
if tree=$(linux61_pristine); then
	ok "kboot --stacks dentry" "$SRC_DIR/tools/kboot" --stacks -o "$TMP/st" \
		--timeout 240 "$SRC_DIR/tools/workloads/dentry.sh"
	"$GFPAUDIT" scan --no-progress --no-rules --db "$TMP/fs.db" "$tree" \
		fs/dcache.c fs/inode.c fs/proc fs/kernfs fs/sysfs fs/libfs.c \
		mm/shmem.c 2>/dev/null
	"$GFPAUDIT" simulate --trace "$TMP/st/trace" --db "$TMP/fs.db" \
		--policy 6.1 >"$TMP/callers" 2>"$TMP/callers.err"
	is "$?" 0 "simulate --trace --db with stacks"
	sed -n '/^# fallbacks by allocating function/,$p' "$TMP/callers" | sed 's/^/# /'
	like "$(cat "$TMP/callers")" "^# fallbacks by allocating function: [1-9][0-9]* fallbacks, [1-9][0-9]* with a stack, 0 not attributed" \
		"every fallback is attributed to a caller of an allocator"
	ok "and joined with that function's sites" \
		awk -F'\t' 'NF == 9 && $6 ~ /^(fs|mm)\/.*:[0-9]+$/ { f = 1 } END { exit !f }' "$TMP/callers"
else
	skip "the 6.1 tree is not installed" 3
fi

# Bad input: one line naming the culprit.
exit_is 2 "--start without --compare" "$GFPAUDIT" simulate \
	--trace "$TMP/pipes/trace" --start "$TMP/pipes/pti0"
printf 'not a pagetypeinfo\n' >"$TMP/bad"
exit_is 2 "a file that is not a pagetypeinfo" "$GFPAUDIT" simulate \
	--trace "$TMP/pipes/trace" --start "$TMP/bad" --compare "$TMP/pipes/pti1"
like "$(cat "$TMP/.out")" "bad" "naming it"
exit_is 2 "a zone the snapshot does not have" "$GFPAUDIT" simulate \
	--trace "$TMP/pipes/trace" --start "$TMP/pipes/pti0" \
	--compare "$TMP/pipes/pti1" --zone Normal
like "$(cat "$TMP/.out")" "no zone Normal" "saying so"
exit_is 2 "kboot: a missing workload" "$SRC_DIR/tools/kboot" "$TMP/none.sh"
done_testing
