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
like "$(cat "$TMP/s/0000-cover-letter.patch")" "1 use could not be converted" \
	"the two-mask site is counted as left for review"

# The checker itself sees a hunk that changes another token.
sed 's/^+\(.*\)gfp | __GFP_NOWARN/+\1gfp | __GFP_NORETRY/' "$TMP"/s/0001-*.patch \
	>"$TMP/bad.patch"
exit_is 1 "the checker refuses a hunk that changes a modifier too" \
	python3 "$SRC_DIR/tests/lib/param-hunks.py" "$SRC_DIR/lib/gfpmask.c" \
	"$TMP/bad.patch"
done_testing
