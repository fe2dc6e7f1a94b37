#!/bin/sh
# simulate --db --rule: the site-driven workload from a sites table filled
# by hand (docs/schema.md), as-is and as the gfp-temporary rule makes it.
# --runs 1 gives one run's table; the default is 10 paired runs
# (t4005 checks the statistics).
. "$(dirname "$0")/lib.sh"

# mkdb DB VERSION: runs + files rows, then sites from stdin lines
# "api;size_const;lifetime;flags;migratetype"
mkdb() {
	"$TOOLS/mkdb" "$1" || return 1
	{
		echo "BEGIN;"
		echo "INSERT INTO runs (command, tree, kernel_version, started_at, status) VALUES ('scan', '/tmp/k', '$2', '2026-12-03T00:00:00Z', 'complete');"
		echo "INSERT INTO files (id, path, hash, size, parse_mode) VALUES (1, 'fs/a.c', '0', 1, 'lexical');"
		n=0
		while IFS=';' read -r api size life flags mt; do
			n=$((n + 1))
			[ -n "$size" ] || size=NULL
			[ -n "$mt" ] && mt="'$mt'" || mt=NULL
			echo "INSERT INTO sites (file_id, path, line, col, api, flags, size_const, lifetime, migratetype) VALUES (1, 'fs/a.c', $n, 1, '$api', '$flags', $size, '$life', $mt);"
		done
		echo "COMMIT;"
	} | sqlite3 -batch "$1"
}

sites_mixed() {
	i=0
	while [ $i -lt 10 ]; do
		echo "__get_free_page;;scoped;GFP_TEMPORARY;reclaimable"
		echo "__get_free_pages;1;scoped;GFP_KERNEL | __GFP_RECLAIMABLE;"
		echo "kmalloc;512;stored;GFP_KERNEL;unmovable"
		echo "kmalloc;128;scoped;GFP_KERNEL;unmovable"
		echo "kmem_cache_alloc;;stored;GFP_NOFS;"
		echo "kmalloc;4096;scoped;GFP_TEMPORARY;reclaimable"
		echo "kmem_cache_create;192;stored;SLAB_RECLAIM_ACCOUNT;"
		i=$((i + 1))
	done
}

db=$TMP/mixed.db
sites_mixed | mkdb "$db" 4.13
"$GFPAUDIT" simulate --db "$db" --rule gfp-temporary --tsv --pages 16384 \
	--steps 150000 --runs 1 >"$TMP/out.tsv" 2>"$TMP/err"
is "$?" "0" "impact runs"
like "$(cat "$TMP/err")" "60 sites \(20 changed by gfp-temporary\), kernel 4.13, policy 6.1" \
	"sites read (kmem_cache_create is no allocation), changed ones counted"
is "$(head -1 "$TMP/out.tsv")" "policy	metric	as-is	patched	delta" "both variants and the delta"
d=$(awk -F'\t' '$2 == "fallbacks" { print $5 }' "$TMP/out.tsv")
ok "removing GFP_TEMPORARY from page allocations changes the fallbacks (delta $d)" \
	test "$d" != "0"
is "$(sql "$db" "SELECT count(DISTINCT variant) FROM sim_results WHERE experiment = 'impact' AND rule = 'gfp-temporary'")" \
	"2" "as-is and patched rows in sim_results"
is "$(sql "$db" "SELECT count(*) FROM sim_results WHERE experiment = 'impact' AND metric = 'highorder_success_pct'")" \
	"2" "one headline figure per variant"
ok "curves for both variants" test "$(sql "$db" "SELECT count(DISTINCT variant) FROM sim_curves WHERE experiment = 'impact'")" = 2

# Only kmalloc sites: before 4.20 kmalloc ignores __GFP_RECLAIMABLE, so the
# rule can change nothing -- the "no measured advantage" case.
db2=$TMP/kmalloc.db
i=0
while [ $i -lt 20 ]; do
	echo "kmalloc;256;scoped;GFP_TEMPORARY;reclaimable"
	echo "kmalloc;1024;stored;GFP_KERNEL;unmovable"
	i=$((i + 1))
done | mkdb "$db2" 4.13
# The default: 10 paired runs, and with nothing changed no verdict can be
# "significant".
"$GFPAUDIT" simulate --db "$db2" --rule gfp-temporary --tsv --pages 16384 \
	--steps 100000 >"$TMP/k.tsv" 2>"$TMP/k.err"
like "$(cat "$TMP/k.err")" "10 paired runs .*seeds 1\.\.10; intervals 95%, Student's t with 9 degrees" \
	"rule impact defaults to 10 paired runs"
is "$(awk -F'\t' 'NR > 1 { print $4 }' "$TMP/k.tsv" | sort -u)" "10" \
	"every row summarises 10 runs"
is "$(sql "$db2" "SELECT count(DISTINCT run) || ' ' || count(DISTINCT seed) FROM sim_runs WHERE experiment = 'impact'")" \
	"10 10" "10 runs on 10 seeds in sim_runs"
nz=$(sql "$db2" "SELECT count(*) FROM sim_runs a JOIN sim_runs p ON p.set_id = a.set_id AND p.run = a.run AND p.metric = a.metric AND p.variant = 'patched' WHERE a.variant = 'as-is' AND p.value != a.value")
is "$nz" "0" "4.13: kmalloc(GFP_TEMPORARY) sites -- every paired delta of every run is 0"
is "$(awk -F'\t' 'NR > 1 { print $1 }' "$TMP/k.tsv" | sort -u)" "not significant" \
	"4.13: and every verdict is 'not significant'"
# the same sites on a 4.20+ kernel: kmalloc-rcl makes the flag count
"$GFPAUDIT" simulate --db "$db2" --rule gfp-temporary --tsv --pages 16384 \
	--steps 100000 --kernel-version 5.0 --runs 1 >"$TMP/k5.tsv" 2>/dev/null
d=$(awk -F'\t' '$2 == "fallbacks" { print $5 }' "$TMP/k5.tsv")
ok "5.0: kmalloc-rcl honours the flag, the rule changes fallbacks (delta $d)" \
	test "$d" != "0"

exit_is 2 "unknown rule" "$GFPAUDIT" simulate --db "$db" --rule nope
err=$("$GFPAUDIT" simulate --db "$db" --rule nope 2>&1)
like "$err" "^gfpaudit simulate: no rule 'nope' in " "unknown rule named"
exit_is 2 "a rule that edits no flag" "$GFPAUDIT" simulate --db "$db" --rule sleep-in-atomic
like "$(cat "$TMP/.out")" "rule sleep-in-atomic changes no flag token" "saying so"
ok "a drop rule has an impact too" "$GFPAUDIT" simulate --db "$db" \
	--rule reclaimable-noop --tsv --pages 16384 --steps 20000 --runs 1
"$TOOLS/mkdb" "$TMP/empty.db"
exit_is 2 "no sites" "$GFPAUDIT" simulate --db "$TMP/empty.db" --rule gfp-temporary
exit_is 2 "--rule without --db" "$GFPAUDIT" simulate --rule gfp-temporary
printf 'not a database' >"$TMP/bad.db"
exit_is 2 "not a database" "$GFPAUDIT" simulate --db "$TMP/bad.db" --rule gfp-temporary
done_testing
