#!/bin/sh
# The lifetime and context classifiers (issue 4) on tests/fixtures/classify,
# at the default single-file depth and with the full translation unit:
# lifetime and its evidence, held_across_sleep, context, gfp_param,
# flag_effective (version-aware), learned wrappers and sleepers, caches,
# and the rules that read them.
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/tools/expect.sh"

# The sites' expected classifications are /* expect: ... */ comments on
# their lines in the fixture (tests/tools/expect.sh); the checks here are
# those of other tables, of counts across sites and of later steps.
tree=$SRC_DIR/tests/fixtures/classify

# col FUNCTION COLUMN: the column of its first site
col() {
	sql "$db" "SELECT ifnull($2, '-') FROM sites WHERE function = '$1'
		ORDER BY line LIMIT 1"
}

for depth in single full; do
	db=$TMP/classify-$depth.db
	ok "$depth: scan succeeds" "$GFPAUDIT" scan --depth $depth \
		--no-progress --db "$db" "$tree"
	conf=$(sql "$db" "SELECT DISTINCT confidence FROM sites
		WHERE path LIKE 'mm/%' ORDER BY 1")
	[ $depth = single ] && want=single_file || want=full_ast
	is "$conf" "$want" "$depth: confidence says what was seen"

	check_expects "$db" "$tree" $depth

	is "$(sql "$db" "SELECT evidence FROM sleepers WHERE function = 'slower_helper'")" \
		"slow_helper() at line 15" "$depth: learned sleeper, with evidence"

	is "$(sql "$db" "SELECT count(*) FROM sites WHERE gfp_param IS NOT NULL AND path = 'drivers/gfpparam.c'")" 3 \
		"$depth: sites that pass gfp (or a local made from it) are not flagged"
	is "$(sql "$db" "SELECT count(*) FROM findings WHERE rule = 'gfp-param' AND path = 'drivers/context.c'")" 0 \
		"$depth: gfp-param: not for flags inside the function's own atomic section"

	is "$(sql "$db" "SELECT name || ' ' || kind || ' ' || ifnull(via, '') FROM allocators
		WHERE origin = 'learned' AND name IN ('alloc_gfp', 'alloc_gfp_twice', 'thing_free')
		ORDER BY name")" "alloc_gfp alloc kmalloc
alloc_gfp_twice alloc alloc_gfp
thing_free free kfree" "$depth: learned wrappers, two levels deep, and a free wrapper"
	is "$(sql "$db" "SELECT name || ' ' || reclaimable || ' ' || has_shrinker FROM caches
		WHERE path NOT LIKE 'mm/cache_%' AND path NOT LIKE 'drivers/%'
		ORDER BY line")" \
		"lonely 1 0
obj 0 1" "$depth: caches: reclaimable without a shrinker, shrunk without the flag"
done

# Without an AST (an inactive #if branch, a call the parse dropped) the
# lifetime comes from the tokens: no paths, confidence lexical.
db=$TMP/classify-lexical.db
ok "lexical: scan succeeds" "$GFPAUDIT" scan --depth lexical --no-progress \
	--db "$db" "$tree"
check_expects "$db" "$tree" lexical

# The rules that read the classifications.
db=$TMP/classify-full.db
out=$("$GFPAUDIT" rules --run --db "$db" sleep-in-atomic 2>/dev/null)
like "$out" 'context.c:12:9: error: kmalloc\(GFP_KERNEL\) may sleep in atomic context \(spin_lock\(&lock\) at line 11\)' \
	"sleep-in-atomic reports the GFP_KERNEL allocation under a spinlock"
is "$(echo "$out" | grep -c 'sleep-in-atomic]')" 9 \
	"sleep-in-atomic: 9 findings, none for GFP_ATOMIC, process context, gfp & ~__GFP_DIRECT_RECLAIM or flags a condition picks"
like "$out" 'caller_lock.c:[0-9]*:[0-9]*: error: vzalloc\(GFP_KERNEL\) may sleep in atomic context \(every caller calls it in an atomic section' \
	"sleep-in-atomic: vzalloc() takes no flags, and its own sleep"
like "$out" 'caller_lock.c:39:12: error: kmalloc\(GFP_KERNEL\) may sleep in atomic context \(every caller runs in atomic context \(cl_mid\(\) in drivers/caller_lock.c\): cl_leaf\(\) <- cl_mid\(\) <- cl_top\(\) in an atomic section\)' \
	"sleep-in-atomic across functions names the chain of callers"
like "$out" 'context.c:136:9: error: kmalloc\(GFP_KERNEL\) may sleep in atomic context' \
	"the fifth: past a braceless if's return"
like "$out" 'context.c:98:9: error: kmalloc\(GFP_KERNEL\) may sleep in atomic context \(registered with request_threaded_irq\(\) at line 110\)' \
	"sleep-in-atomic: a GFP_KERNEL allocation in a primary irq handler"
out=$("$GFPAUDIT" rules --run --db "$db" reclaimable-without-shrinker \
	shrinker-without-reclaimable 2>/dev/null)
like "$out" 'cache "lonely" is SLAB_RECLAIM_ACCOUNT but no shrinker was found' \
	"reclaimable-without-shrinker: the lonely cache"
like "$out" 'cache "obj" looks shrunk by' "...and the shrunk cache lacking the flag"
out=$("$GFPAUDIT" rules --run --db "$db" reclaimable-noop 2>/dev/null)
is "$(echo "$out" | grep -c 'reclaimable-noop]')" 4 \
	"reclaimable-noop: the 4 slab sites where GFP_TEMPORARY does nothing"

# Version-aware: on 4.20 kmalloc-rcl makes __GFP_RECLAIMABLE count.
cp -R "$tree" "$TMP/t420"
sed -i 's/^PATCHLEVEL = 13/PATCHLEVEL = 20/' "$TMP/t420/Makefile"
db=$TMP/t420.db
"$GFPAUDIT" scan --no-progress --db "$db" "$TMP/t420" 2>/dev/null
is "$(sql "$db" "SELECT flag_effective || ' ' || flag_effective_reason FROM sites
	WHERE function = 'effects' ORDER BY line LIMIT 1")" \
	"1 __GFP_RECLAIMABLE selects the kmalloc-rcl caches (4.20+)" \
	"4.20: kmalloc(GFP_TEMPORARY) uses the kmalloc-rcl caches"

# A callback's context comes from its registration in another file: a
# re-scan after the registration went gives the file's own answer back.
is "$(col cb_isr context)" atomic "registered in another file: atomic"
sed -i 's/request_irq(10, cb_isr,/request_irq(10, NULL,/' \
	"$TMP/t420/drivers/cb_register.c"
"$GFPAUDIT" scan --no-progress --db "$db" "$TMP/t420" 2>/dev/null
is "$(col cb_isr context)" unknown "registration removed: unknown again"
is "$(col cb_refill context)" unknown "...and so is what only it calls"

# Another file's sleeper counts in the same scan: the summaries step
# solves the whole tree's call graph once every file is in.
db=$TMP/classify-single.db
like "$(col held_across_files sleep_evidence)" \
	"^slower_helper\(\) at line 11: slower_helper\(\) -> .*mm/sleep\.c\)$" \
	"first scan: the evidence is the chain into mm/sleep.c"
# Through a file the scan does not parse (no allocation in it), two
# calls down; not through a function called under a spinlock; and a call
# reaches the caller file's own static function of that name.
like "$(col summ_held_deep sleep_evidence)" \
	"^summ_deep\(\) at line 18: summ_deep\(\) -> summ_inner\(\) -> mutex_lock\(\) at line 14 \(lib/summ_helpers\.c\)$" \
	"summaries: the chain names each call"
is "$(sql "$db" "SELECT may_sleep || ' ' || ifnull(sleep_via, '-') FROM functions
	WHERE name = 'summ_keep_local'")" "1 summ_local" \
	"functions: may_sleep and sleep_via"
# A re-scan into the same database answers as the first scan did: the
# sleepers and free functions the first one learned are not read back.
answers() {
	sql "$db" "SELECT path, line, col, lifetime, lifetime_evidence,
		held_across_sleep, sleep_evidence, context, context_evidence,
		gfp_param FROM sites ORDER BY path, line, col"
}
first=$(answers)
"$GFPAUDIT" scan --force --no-progress --db "$db" "$tree" 2>/dev/null
is "$(answers)" "$first" "re-scan: every site answers as in the first scan"
like "$(col held_across_files sleep_evidence)" "slower_helper\(\) -> .*mm/sleep\.c\)$" \
	"re-scan: the chain into mm/sleep.c, from the summaries"

# A scan never writes into the tree.
is "$(find "$tree" -newer "$db" -type f | wc -l | tr -d ' ')" 0 \
	"the fixture tree is not modified"
done_testing
