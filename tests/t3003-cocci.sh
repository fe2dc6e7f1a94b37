#!/bin/sh
# The companion semantic patches: kernel scripts/coccinelle style, and
# spatch's rewrite equals gfpaudit patch's on the code both see.
. "$(dirname "$0")/lib.sh"

for c in "$SRC_DIR"/rules/cocci/*.cocci; do
	n=$(basename "$c")
	ok "$n: Confidence" grep -q '^// Confidence: ' "$c"
	ok "$n: Options" grep -q '^// Options: ' "$c"
	ok "$n: header comment" grep -q '^/// ' "$c"
	for m in patch context org report; do
		ok "$n: virtual $m" grep -q "^virtual $m\$" "$c"
	done
done
for r in "$SRC_DIR"/rules/*.rule; do
	c=$(sed -n 's/^cocci: //p' "$r")
	[ -n "$c" ] || continue
	ok "$(basename "$r") names an existing $c" test -f "$SRC_DIR/rules/cocci/$c"
done
have_program() { command -v "$1" >/dev/null 2>&1; }
have_program spatch || { done_testing; }

T=$TMP/t
mkdir -p "$T/mm" "$T/include/linux"
printf 'VERSION = 4\nPATCHLEVEL = 13\nSUBLEVEL = 0\nEXTRAVERSION =\n' >"$T/Makefile"
cat >"$T/include/linux/gfp.h" <<'EOF2'
#ifndef _LINUX_GFP_H
#define _LINUX_GFP_H
typedef unsigned int gfp_t;
#define __GFP_IO	0x40u
#define __GFP_FS	0x80u
#define __GFP_RECLAIM	0x400u
#define __GFP_RECLAIMABLE	0x10u
#define __GFP_NOWARN	0x200u
#define GFP_KERNEL	(__GFP_RECLAIM | __GFP_IO | __GFP_FS)
#define GFP_TEMPORARY	(__GFP_RECLAIM | __GFP_IO | __GFP_FS | \
			 __GFP_RECLAIMABLE)
void *kmalloc(unsigned long size, gfp_t flags);
unsigned long __get_free_pages(gfp_t gfp_mask, unsigned int order);
#endif
EOF2
cat >"$T/mm/a.c" <<'EOF2'
// SPDX-License-Identifier: GPL-2.0
#include <linux/gfp.h>

struct buf {
	gfp_t gfp;
	void *data;
};

static const gfp_t default_gfp = GFP_TEMPORARY;

void *buf_alloc(struct buf *b, unsigned long len)
{
	gfp_t flags = GFP_TEMPORARY | __GFP_NOWARN;

	b->gfp = GFP_TEMPORARY;
	b->data = kmalloc(len,   GFP_TEMPORARY);
	if (!b->data)
		b->data = (void *)__get_free_pages(GFP_TEMPORARY|__GFP_NOWARN,
						   2);
	return kmalloc(len, flags) ? b->data : kmalloc(len,
			GFP_TEMPORARY);
}
EOF2
(cd "$T" && git init -q && git add -A &&
	git -c user.name=T -c user.email=t@example.org commit -qm init) ||
	skip_all "git cannot commit here"
db=$TMP/c.db
ok "scan the fixture" "$GFPAUDIT" scan --db "$db" "$T"
ok "patch it" "$GFPAUDIT" patch --db "$db" --rule gfp-temporary \
	--out "$TMP/out" "$T"
W=$TMP/w
git clone -q "$T" "$W"
ok "git am the series" sh -c "cd '$W' && ls '$TMP'/out/000[1-9]*.patch |
	xargs git -c user.name=T -c user.email=t@example.org am -q"
S=$TMP/s
cp -a "$T" "$S"
ok "spatch -D patch with the series' .cocci" spatch --very-quiet \
	--sp-file "$TMP/out/gfp-temporary.cocci" -D patch --no-includes \
	--include-headers --dir "$S/mm" --in-place
ok "spatch and gfpaudit rewrite mm/a.c byte for byte alike" cmp "$S/mm/a.c" "$W/mm/a.c"
ok "and spatch changed something" sh -c "! cmp -s '$T/mm/a.c' '$S/mm/a.c'"
out=$(spatch --very-quiet --sp-file "$SRC_DIR/rules/cocci/gfp-temporary.cocci" \
	-D report --no-includes --dir "$T/mm" 2>&1)
is "$(printf '%s\n' "$out" | grep -c 'GFP_TEMPORARY was removed in v4.14')" 6 \
	"-D report reports each use"
out=$(spatch --very-quiet --sp-file "$SRC_DIR/rules/cocci/reclaimable-noop.cocci" \
	-D patch --no-includes --dir "$T/mm" 2>&1)
like "$out" "^\\+	b->data = kmalloc\\(len,   GFP_KERNEL\\);" \
	"reclaimable-noop.cocci rewrites kmalloc's GFP_TEMPORARY"
if printf '%s' "$out" | grep -q '__get_free_pages(GFP_KERNEL'; then r=1; else r=0; fi
is "$r" 0 "reclaimable-noop.cocci leaves the page allocator alone"
done_testing
