#!/bin/sh
# The lifetime and context classifiers (issue 4) on tests/fixtures/classify,
# at the default single-file depth and with the full translation unit:
# lifetime and its evidence, held_across_sleep, context, gfp_param,
# flag_effective (version-aware), learned wrappers and sleepers, caches,
# and the rules that read them.
. "$(dirname "$0")/lib.sh"

tree=$SRC_DIR/tests/fixtures/classify

# site FUNCTION [API]: "lifetime line held context" of its site
site() {
	sql "$db" "SELECT lifetime || ' ' || ifnull(lifetime_line, '-') || ' ' ||
		ifnull(held_across_sleep, '-') || ' ' || ifnull(context, '-')
		FROM sites WHERE function = '$1' ${2:+AND api = '$2'}
		ORDER BY line LIMIT 1"
}
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

	# lifetime (line of the evidence), held_across_sleep, context
	is "$(site scoped_free)" "scoped 23 0 process" "$depth: freed on every path"
	is "$(site scoped_goto)" "scoped 40 0 process" \
		"$depth: goto error paths reach the free at the label"
	is "$(site leaked_error)" "leaked_on_path 52 0 process" \
		"$depth: an early return without kfree"
	is "$(site leaked_switch)" "leaked_on_path 160 0 process" \
		"$depth: the switch's default path leaks"
	is "$(site returned_var)" "returned 64 0 process" "$depth: returned"
	is "$(site stored_field)" "stored 69 0 process" "$depth: d->buf = kmalloc()"
	is "$(site stored_later)" "stored 78 0 process" "$depth: d->buf = p later"
	is "$(site stored_out)" "stored 84 0 process" "$depth: *out = kmalloc()"
	is "$(site stored_global)" "stored 90 0 process" "$depth: a global"
	is "$(site stored_list)" "stored 99 0 process" "$depth: list_add(&d->node)"
	is "$(site escaped)" "stored 109 0 process" \
		"$depth: passed to a function that may keep it"
	is "$(site scoped_alias)" "scoped 117 0 process" "$depth: freed via an alias"
	is "$(site scoped_page)" "scoped 128 0 process" \
		"$depth: free_page((unsigned long)page)"
	is "$(site scoped_loop)" "scoped 142 0 process" "$depth: inside a loop"
	is "$(site scoped_realloc kmalloc)" "scoped 169 1 process" \
		"$depth: handed to krealloc(), which may sleep"
	is "$(col scoped_free lifetime_evidence)" "kfree() at line 23" \
		"$depth: evidence names the free"
	is "$(col stored_later lifetime_evidence)" "stored in d->buf at line 78" \
		"$depth: evidence names the store"

	is "$(site held_copy)" "scoped 25 1 process" "$depth: copy_from_user while held"
	is "$(col held_copy sleep_evidence)" "copy_from_user() at line 24" \
		"$depth: sleep evidence"
	is "$(site not_held)" "scoped 39 0 process" "$depth: memset does not sleep"
	is "$(col held_helper sleep_evidence)" "slower_helper() at line 47" \
		"$depth: sleeps through two functions of the TU"
	is "$(col held_mutex sleep_evidence)" "mutex_lock() at line 56" \
		"$depth: mutex_lock sleeps"
	is "$(col held_alloc sleep_evidence)" "kmalloc() at line 66" \
		"$depth: a GFP_KERNEL allocation sleeps"
	is "$(sql "$db" "SELECT evidence FROM sleepers WHERE function = 'slower_helper'")" \
		"slow_helper() at line 15" "$depth: learned sleeper, with evidence"

	is "$(col under_lock context_evidence)" "spin_lock(&lock) at line 11" \
		"$depth: atomic under spin_lock"
	is "$(col under_lock_after_error context)" atomic \
		"$depth: still locked after the unlock-and-return path"
	is "$(col after_unlock context)" process "$depth: after the unlock"
	is "$(col irqs_off context_evidence)" "local_irq_save(flags) at line 39" \
		"$depth: a macro's atomic section"
	is "$(col in_rcu context)" atomic "$depth: rcu_read_lock"
	is "$(col my_irq context) $(col my_irq context_evidence)" \
		"unknown irq handler not registered in this file (primary or threaded)" \
		"$depth: an irqreturn_t function registered elsewhere"
	is "$(col either_isr context)" atomic \
		"$depth: a handler named in a conditional argument"
	is "$(col either_thread context)" process \
		"$depth: ...and the threaded one beside it"
	is "$(site device_managed)" "stored 175 0 process" \
		"$depth: devm_kzalloc: the device owns it"
	is "$(col tick context_evidence)" "registered with request_irq() at line 85" \
		"$depth: registered irq handler"
	is "$(col thread_fn context)" process "$depth: threaded handler sleeps"

	is "$(col quotable gfp_param)" gfp "$depth: hard-coded flags beside a gfp_t"
	is "$(sql "$db" "SELECT count(*) FROM sites WHERE gfp_param IS NOT NULL")" 1 \
		"$depth: sites that pass gfp (or a local made from it) are not flagged"

	is "$(sql "$db" "SELECT name || ' ' || kind || ' ' || ifnull(via, '') FROM allocators
		WHERE origin = 'learned' AND name IN ('alloc_gfp', 'alloc_gfp_twice', 'thing_free')
		ORDER BY name")" "alloc_gfp alloc kmalloc
alloc_gfp_twice alloc alloc_gfp
thing_free free kfree" "$depth: learned wrappers, two levels deep, and a free wrapper"
	is "$(site thing_user)" "scoped 51 0 process" \
		"$depth: a wrapper's caller is a site; the free wrapper frees it"

	is "$(sql "$db" "SELECT group_concat(ifnull(flag_effective, '-'), ' ') FROM
		(SELECT flag_effective FROM sites WHERE function = 'effects' ORDER BY line)")" \
		"0 1 0 1" "$depth: kmalloc no, kmalloc > 8 KiB yes, kmem_cache_alloc no, pages yes (4.13)"
	is "$(sql "$db" "SELECT name || ' ' || reclaimable || ' ' || has_shrinker FROM caches ORDER BY line")" \
		"lonely 1 0
obj 0 1" "$depth: caches: reclaimable without a shrinker, shrunk without the flag"
done

# Without an AST (an inactive #if branch, a call the parse dropped) the
# lifetime comes from the tokens: no paths, confidence lexical.
db=$TMP/classify-lexical.db
ok "lexical: scan succeeds" "$GFPAUDIT" scan --depth lexical --no-progress \
	--db "$db" "$tree"
is "$(site scoped_free) $(col scoped_free confidence)" \
	"scoped 23 0 process lexical" "lexical: kfree(buf) later in the function"
is "$(site held_copy) $(col held_copy sleep_evidence)" \
	"scoped 25 1 process copy_from_user() at line 24" \
	"lexical: a sleeping call before the free"
is "$(site stored_field)" "stored 69 0 process" "lexical: d->buf = kmalloc()"
is "$(site stored_out)" "stored 84 0 process" "lexical: *out = kmalloc()"
is "$(site returned_var)" "returned 64 0 process" "lexical: return p"
is "$(site escaped)" "stored 109 0 process" "lexical: handed to a function, not freed: stored"
is "$(site store_global)" "stored 184 0 process" \
	"lexical: a name the function never declared is a global: stored"
is "$(site page_local)" "scoped 191 0 process" \
	"lexical: a local declared with a keyword type (unsigned long) is local"
# Context from the tokens: a section still open at the call, or the flags.
is "$(site under_lock) $(col under_lock context_evidence)" \
	"stored 12 0 atomic spin_lock(&lock) at line 11" \
	"lexical: a spin_lock still open at the call is atomic"
is "$(site under_lock_after_error)" "stored 23 0 atomic" \
	"lexical: an unlock in a block that returns does not fall through"
is "$(site left_locked_on_error)" "returned 127 0 process" \
	"lexical: nor does a lock taken in such a block"
is "$(site held_past_cond_return)" "stored 136 0 atomic" \
	"lexical: a braceless if's return may not be taken"

# Hand-overs, at every depth: a structure holding the buffer returned is
# returned; the span a sleep counts in ends at the store, even when an
# error path frees the target later (the labelling brief's reading, and
# the third reads' on every 6.1 label the two readers split on).
for db in "$TMP/classify-single.db" "$TMP/classify-full.db" "$TMP/classify-lexical.db"; do
	d=$(basename "$db" .db)
	is "$(sql "$db" "SELECT lifetime FROM sites WHERE function = 'holder_back'
		AND line = 16")" returned "$d: evt->buf = ...; return evt: returned"
	is "$(sql "$db" "SELECT lifetime || ' ' || held_across_sleep FROM sites
		WHERE function = 'store_then_undo'")" "stored 0" \
		"$d: a free on a later error path does not extend the span past the store"
	is "$(sql "$db" "SELECT lifetime || ' ' || held_across_sleep FROM sites
		WHERE function = 'scoped_then_macro' AND api = 'kmalloc'")" "scoped 1" \
		"$d: an allocating macro's invocation flags (GFP_KERNEL) sleep"
	is "$(sql "$db" "SELECT lifetime || ' ' || held_across_sleep FROM sites
		WHERE function = 'two_tables' ORDER BY line")" "scoped 1
scoped 0" "$d: vzalloc, with no gfp_t, sleeps (GFP_KERNEL from the allocator table)"
	is "$(sql "$db" "SELECT lifetime || ' ' || held_across_sleep FROM sites
		WHERE function = 'store_kept'")" "stored 0" \
		"$d: stored and never freed here: the sleep after the store does not count"
	is "$(sql "$db" "SELECT lifetime FROM sites WHERE function = 'pool_init'")" \
		stored "$d: pool->base = p of a struct the parse cannot type is a store"
	is "$(sql "$db" "SELECT lifetime FROM sites WHERE function = 'local_xfer'")" \
		scoped "$d: t.rx_buf = p of a structure on the stack is no store"
done

# The rules that read the classifications.
db=$TMP/classify-full.db
out=$("$GFPAUDIT" rules --run --db "$db" sleep-in-atomic 2>/dev/null)
like "$out" 'context.c:12:9: error: kmalloc\(GFP_KERNEL\) may sleep in atomic context \(spin_lock\(&lock\) at line 11\)' \
	"sleep-in-atomic reports the GFP_KERNEL allocation under a spinlock"
is "$(echo "$out" | grep -c 'sleep-in-atomic]')" 5 \
	"sleep-in-atomic: 5 findings, none for GFP_ATOMIC, process context or gfp & ~__GFP_DIRECT_RECLAIM"
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

# Another file's sleeper counts in the same scan: the summaries step
# solves the whole tree's call graph once every file is in.
db=$TMP/classify-single.db
is "$(site held_across_files)" "scoped 12 1 process" \
	"first scan: another file's sleeper is known"
like "$(col held_across_files sleep_evidence)" \
	"^slower_helper\(\) at line 11: slower_helper\(\) -> .*mm/sleep\.c\)$" \
	"first scan: the evidence is the chain into mm/sleep.c"
# Through a file the scan does not parse (no allocation in it), two
# calls down; not through a function called under a spinlock; and a call
# reaches the caller file's own static function of that name.
is "$(site summ_held_deep)" "scoped 19 1 process" \
	"summaries: held across a sleep two calls down in another file"
like "$(col summ_held_deep sleep_evidence)" \
	"^summ_deep\(\) at line 18: summ_deep\(\) -> summ_inner\(\) -> mutex_lock\(\) at line 14 \(lib/summ_helpers\.c\)$" \
	"summaries: the chain names each call"
is "$(site summ_held_report)" "scoped 30 0 process" \
	"summaries: a function called under a spinlock does not sleep"
is "$(site summ_held_local)" "scoped 41 0 process" \
	"summaries: the file's own static function, not another file's"
is "$(sql "$db" "SELECT context || ' ' || context_evidence FROM sites
	WHERE function = 'summ_fill'")" \
	"atomic every caller calls it in an atomic section (summ_caller_a() in lib/summ_helpers.c)" \
	"summaries: GFP_ATOMIC in a function every caller calls under a lock"
is "$(sql "$db" "SELECT context FROM sites WHERE function = 'summ_mixed'")" \
	unknown "summaries: one caller without a lock leaves it unknown"
is "$(sql "$db" "SELECT may_sleep || ' ' || ifnull(sleep_via, '-') FROM functions
	WHERE name = 'summ_keep_local'")" "1 summ_local" \
	"functions: may_sleep and sleep_via"
"$GFPAUDIT" scan --force --no-progress --db "$db" "$tree" 2>/dev/null
is "$(col held_across_files sleep_evidence)" "slower_helper() at line 11" \
	"re-scan: the learned sleeper of mm/sleep.c counts in mm/sleep_user.c"

# A scan never writes into the tree.
is "$(find "$tree" -newer "$db" -type f | wc -l | tr -d ' ')" 0 \
	"the fixture tree is not modified"
done_testing
