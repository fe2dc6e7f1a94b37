#!/bin/sh
# The gfp-param rule changes exactly the tokens it names: a base mask
# becomes the caller's gfp_t, the modifiers beside it stay, and flags made
# from the parameter (6.1 mm/slab.c cache_grow_begin(): local_flags =
# flags & (...), then local_flags & ~GFP_CONSTRAINT_MASK) are neither a
# finding nor a hunk (issue 17).
. "$(dirname "$0")/lib.sh"

T=$TMP/t
cp -R "$SRC_DIR/tests/fixtures/gfpparam" "$T"
db=$TMP/p.db
ok "scan the fixture" "$GFPAUDIT" scan --no-progress --db "$db" "$T"
is "$(sql "$db" "SELECT api || ' ' || flags FROM sites
	WHERE function = 'cache_grow_begin'")" \
	"alloc_slabmgmt local_flags & ~GFP_CONSTRAINT_MASK" \
	"the slab shape is a site (alloc_slabmgmt is learned)"
is "$(sql "$db" "SELECT ifnull(gfp_param, '-') FROM sites
	WHERE function = 'cache_grow_begin'")" "-" \
	"flags made from the parameter through a local are not a finding"
is "$(sql "$db" "SELECT function || ' ' || gfp_param FROM sites
	WHERE gfp_param IS NOT NULL ORDER BY line")" "hard_coded gfp
dma_buf gfp
two_masks gfp" "the hard-coded base masks are"

ok "patch --rule gfp-param" "$GFPAUDIT" patch --db "$db" --rule gfp-param \
	--maintainers none --out "$TMP/s" "$T"
p=$(cat "$TMP"/s/0001-*.patch)
like "$p" "^\\+	return kmalloc\\(n, gfp \\| __GFP_NOWARN\\);" \
	"the base mask becomes gfp, __GFP_NOWARN stays"
like "$p" "^\\+	return kmalloc\\(n, gfp \\| GFP_DMA\\);" \
	"GFP_DMA is a zone modifier and stays"
is "$(printf '%s\n' "$p" | grep -c '^[-+][^-+]')" 4 "two lines change, no other"
is "$(printf '%s\n' "$p" | grep -c 'local_flags')" 0 \
	"the slab shape has no hunk"
ok "every hunk replaces one base mask by the parameter" \
	python3 "$SRC_DIR/tests/lib/param-hunks.py" "$SRC_DIR/lib/gfpmask.c" \
	"$TMP"/s/0001-*.patch
like "$(cat "$TMP"/s/0001-*.patch)" "1 use could not be converted" \
	"the two-mask site is counted as left for review"

# Every hunk is checked against its plan before it is written: a drop
# rule's edit that would turn `GFP_KERNEL & ~__GFP_RECLAIMABLE` into `&
# ~0` is refused with its file:line and left out; the others stay.
mkdir "$TMP/rules"
cat >"$TMP/rules/drop-rcl.rule" <<'EOF2'
name: drop-rcl
description: drop __GFP_RECLAIMABLE (a test rule)
versions: all
action: drop
flags: __GFP_RECLAIMABLE
replace: __GFP_RECLAIMABLE -
subject: drop __GFP_RECLAIMABLE
why: A test.

match: sites
where: flags not-null
severity: note
message: {flags}
EOF2
"$GFPAUDIT" patch --db "$db" --rules "$TMP/rules" --rule drop-rcl \
	--maintainers none --out "$TMP/d" "$T" >"$TMP/out" 2>"$TMP/err"
is "$?" 0 "a series with a refused hunk is still written"
is "$(grep -c 'hunk refused' "$TMP/err")" 1 "one hunk is refused"
like "$(cat "$TMP/err")" "warning: mm/drop.c:13:34: hunk refused: the hunk changes '__GFP_RECLAIMABLE' into '0', the plan drops __GFP_RECLAIMABLE\$" \
	"on one line naming file:line and what differs from the plan"
d=$(cat "$TMP"/d/0001-*.patch)
like "$d" "^\+	return kmalloc\(n, GFP_KERNEL\);" "the planned drop is in the series"
is "$(printf '%s\n' "$d" | grep -c '^[-+]	.*\(__GFP_RECLAIMABLE\|~0\)')" 1 \
	"the refused hunk is not (only the removed line names the flag)"
like "$(cat "$TMP"/d/0001-*.patch | tr '\n' ' ')" "1 planned edit +changed other tokens than the plan named and was left out" \
	"the notes below --- say so (one patch: no cover letter)"

# The checker itself sees a hunk that changes another token.
sed 's/^+\(.*\)gfp | __GFP_NOWARN/+\1gfp | __GFP_NORETRY/' "$TMP"/s/0001-*.patch \
	>"$TMP/bad.patch"
exit_is 1 "the checker refuses a hunk that changes a modifier too" \
	python3 "$SRC_DIR/tests/lib/param-hunks.py" "$SRC_DIR/lib/gfpmask.c" \
	"$TMP/bad.patch"
done_testing
