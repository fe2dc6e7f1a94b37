#!/bin/sh
# simulate --experiment antifrag: grouping pages by mobility must beat
# nogroup, as Gorman's published results say, for several seeds; results
# go to the database; the invariant checker holds through a whole run.
. "$(dirname "$0")/lib.sh"

val() { awk -F'\t' -v p="$2" -v m="$3" '$1 == p && $2 == m { print $3 }' "$1"; }
gt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 > b + 0) }'; }

for seed in 1 2 3; do
	out=$TMP/af$seed.tsv
	"$GFPAUDIT" simulate --experiment antifrag --tsv --seed $seed >"$out"
	is "$(head -1 "$out")" "policy	metric	value" "seed $seed: tsv header"
	for p in 2.6.24 6.1; do
		for m in highorder_success_pct; do
			a=$(val "$out" $p $m) b=$(val "$out" nogroup $m)
			ok "seed $seed: $p beats nogroup on $m ($a > $b)" gt "$a" "$b"
		done
		a=$(val "$out" $p mixed_pageblocks) b=$(val "$out" nogroup mixed_pageblocks)
		ok "seed $seed: $p has fewer mixed pageblocks ($a < $b)" gt "$b" "$a"
	done
	for m in fallbacks steals unusable_index_9 fragmentation_index_9; do
		like "$(val "$out" 6.1 $m)" "^-?[0-9.]+$" "seed $seed: $m reported"
	done
done
# the same seed gives the same figures
"$GFPAUDIT" simulate --experiment antifrag --tsv --seed 1 >"$TMP/again.tsv"
ok "deterministic for a seed" cmp "$TMP/af1.tsv" "$TMP/again.tsv"

# the table form has the same rows
n=$("$GFPAUDIT" simulate --experiment antifrag --policy 6.1 | wc -l)
is "$n" "$(grep -c '^6.1	' "$TMP/af1.tsv" | awk '{ print $1 + 1 }')" \
	"--policy 6.1 prints one policy"

# the zone at rest as /proc files: fragstat reads them and finds the same
# order-9 unusable index the simulation reported
mkdir "$TMP/proc"
"$GFPAUDIT" simulate --experiment antifrag --tsv --proc-out "$TMP/proc" >"$TMP/pr.tsv"
for p in nogroup 2.6.24 6.1; do
	"$GFPAUDIT" fragstat --tsv --buddyinfo "$TMP/proc/buddyinfo.$p" \
		--pagetypeinfo "$TMP/proc/pagetypeinfo.$p" >"$TMP/fs.$p" 2>&1
	is "$?" "0" "$p: fragstat reads the model's buddyinfo and pagetypeinfo"
	got=$(awk -F'\t' '$3 == 9 { print $6 }' "$TMP/fs.$p")
	want=$(val "$TMP/pr.tsv" $p unusable_index_9)
	is "$got" "$want" "$p: fragstat's order-9 unusable index = simulate's"
done
"$GFPAUDIT" fragstat --pagetypeinfo "$TMP/proc/pagetypeinfo.6.1" >"$TMP/fs.txt"
like "$(cat "$TMP/fs.txt")" "mixed pageblocks: Unmovable [0-9]+ Movable [0-9]+" \
	"the model's mixed-block counts in page_owner layout"
exit_is 2 "--proc-out into a missing directory" "$GFPAUDIT" simulate \
	--experiment antifrag --pages 4096 --steps 1000 --proc-out "$TMP/nope/x"

# database
db=$TMP/sim.db
exit_is 0 "--db writes" "$GFPAUDIT" simulate --experiment antifrag --db "$db" \
	--pages 16384 --steps 100000
is "$(sql "$db" "SELECT count(DISTINCT policy) FROM sim_results WHERE experiment = 'antifrag' AND variant = '-' AND rule IS NULL")" \
	"3" "sim_results has the three policies"
is "$(sql "$db" "SELECT count(*) FROM sim_results WHERE metric = 'highorder_success_pct'")" \
	"3" "one highorder_success_pct per policy"
ok "sim_curves sampled" test "$(sql "$db" "SELECT count(*) FROM sim_curves WHERE experiment = 'antifrag' AND policy = '6.1'")" -gt 50
is "$(sql "$db" "SELECT free_order9 FROM sim_curves WHERE policy = '6.1' AND step = 0")" \
	"32" "the empty zone starts with all 32 order-9 blocks free"

# the checker after every operation, through a whole (small) run
for p in nogroup 2.6.24 6.1; do
	exit_is 0 "$p: invariants hold after every operation" \
		"$GFPAUDIT" simulate --experiment antifrag --policy $p \
		--pages 4096 --steps 15000 --debug-checks --highatomic
done

exit_is 2 "unknown experiment" "$GFPAUDIT" simulate --experiment nope
exit_is 2 "two modes at once" "$GFPAUDIT" simulate --experiment antifrag --trace x
exit_is 2 "no mode" "$GFPAUDIT" simulate
exit_is 2 "bad --pages" "$GFPAUDIT" simulate --experiment antifrag --pages 12x
exit_is 2 "--pages too small" "$GFPAUDIT" simulate --experiment antifrag --pages 10
exit_is 2 "unknown policy" "$GFPAUDIT" simulate --experiment antifrag --policy 5.0
done_testing
