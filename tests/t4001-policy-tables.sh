#!/bin/sh
# The 6.1 policy's fallback table and steal rule against the installed 6.1
# source itself (Debian linux-source-6.1), entry by entry; the 2.6.24 table
# is checked against its transcription in tests/unit/test_allocator_policy.c.
. "$(dirname "$0")/lib.sh"

tree=$(linux61_pristine) || skip_all "linux-source-6.1 not available"
src=$tree/mm/page_alloc.c
[ -f "$src" ] || skip_all "no mm/page_alloc.c in $tree"

# "[MIGRATE_X] = { A, B, MIGRATE_TYPES }," -> "MIGRATE_X: A B"
sed -n '/^static int fallbacks\[MIGRATE_TYPES\]\[[0-9]*\] = {/,/^};/p' "$src" |
	grep '^[[:space:]]*\[MIGRATE_' |
	sed -e 's/^[[:space:]]*\[\([A-Z_]*\)\][[:space:]]*=[[:space:]]*{\(.*\)}.*/\1:\2/' \
	    -e 's/,/ /g' -e 's/MIGRATE_TYPES//' -e 's/[[:space:]][[:space:]]*/ /g' \
	    -e 's/ *$//' |
	grep -v ':$' >"$TMP/kernel"
"$GFPAUDIT" simulate --show-policy 6.1 | grep -v '^#' >"$TMP/model"
is "$(wc -l <"$TMP/kernel" | tr -d ' ')" "3" "6.1 has three fallback rows"
n=0
while IFS= read -r row; do
	n=$((n + 1))
	want=$(sed -n "${n}p" "$TMP/kernel")
	is "$row" "$want" "6.1 fallbacks row $n matches mm/page_alloc.c"
done <"$TMP/model"
is "$n" "3" "the model prints three rows"
"$GFPAUDIT" simulate --show-policy nogroup | grep -v '^#' >"$TMP/nogroup"
ok "nogroup uses the 6.1 table" cmp "$TMP/nogroup" "$TMP/model"

# can_steal_fallback(): the conditions the unit test encodes
body=$(sed -n '/^static bool can_steal_fallback/,/^}/p' "$src")
like "$body" "order >= pageblock_order / 2" "steal from half a pageblock"
like "$body" "start_mt == MIGRATE_RECLAIMABLE" "reclaimable always steals"
like "$body" "start_mt == MIGRATE_UNMOVABLE" "unmovable always steals"
like "$body" "page_group_by_mobility_disabled" "nogroup always steals"
# steal_suitable_fallback(): claim at half a block of free + alike pages
body=$(sed -n '/^static void steal_suitable_fallback/,/^}/p' "$src")
like "$body" "free_pages \+ alike_pages >= \(1 << \(pageblock_order-1\)\)" \
	"claim rule: free + alike >= half a pageblock"

exit_is 2 "unknown policy refused" "$GFPAUDIT" simulate --show-policy 5.0
done_testing
