#!/bin/sh
# The companion semantic patches: kernel scripts/coccinelle style, and
# spatch's rewrite equals gfpaudit patch's on the code both see.
. "$(dirname "$0")/lib.sh"

for c in "$SRC_DIR"/data/cocci/*.cocci; do
	n=$(basename "$c")
	ok "$n: Confidence" grep -q '^// Confidence: ' "$c"
	ok "$n: Options" grep -q '^// Options: ' "$c"
	ok "$n: header comment" grep -q '^/// ' "$c"
	for m in patch context org report; do
		ok "$n: virtual $m" grep -q "^virtual $m\$" "$c"
	done
done
for r in "$SRC_DIR"/data/*.rule; do
	c=$(sed -n 's/^cocci: //p' "$r")
	[ -n "$c" ] || continue
	ok "$(basename "$r") names an existing $c" test -f "$SRC_DIR/data/cocci/$c"
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
#define __GFP_ZERO	0x8000u
void *kmalloc(unsigned long size, gfp_t flags);
void *kmalloc_node(unsigned long size, gfp_t flags, int node);
void kfree(const void *p);
unsigned long __get_free_pages(gfp_t gfp_mask, unsigned int order);
unsigned long get_zeroed_page(gfp_t gfp_mask);
#endif
EOF2
# gfp-param: functions that take a gfp_t but hard-code their flags.
mkdir -p "$T/lib"
cat >"$T/lib/p.c" <<'EOF2'
// SPDX-License-Identifier: GPL-2.0
#include <linux/gfp.h>

char *quotable(const char *s, gfp_t gfp)
{
	char *buffer, *quoted;

	buffer = kmalloc(4096, GFP_TEMPORARY);
	quoted = kmalloc(16,  GFP_KERNEL | __GFP_NOWARN);
	kfree(buffer);
	return kmalloc(8, gfp) ? quoted : 0;
}

void *no_param(unsigned long n)
{
	return kmalloc(n, GFP_KERNEL);
}

unsigned long pages(int order, gfp_t gfp_mask)
{
	unsigned long a = __get_free_pages(GFP_KERNEL, order);
	unsigned long b = __get_free_pages(GFP_TEMPORARY|__GFP_ZERO, order);

	return a + b + get_zeroed_page(GFP_KERNEL) +
		(unsigned long)kmalloc_node(8, GFP_KERNEL, 0);
}
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
# shrinker-without-reclaimable: caches a shrinker of the file frees.
mkdir -p "$T/fs"
cat >"$T/fs/c.c" <<'EOF2'
// SPDX-License-Identifier: GPL-2.0
#include <linux/gfp.h>

#define SLAB_HWCACHE_ALIGN	0x00002000UL
#define SLAB_RECLAIM_ACCOUNT	0x00020000UL
#define HW	SLAB_HWCACHE_ALIGN
struct kmem_cache;
struct kmem_cache *kmem_cache_create(const char *name, unsigned int size,
				     unsigned int align, unsigned long flags,
				     void (*ctor)(void *));
void kmem_cache_free(struct kmem_cache *c, void *p);
struct shrinker {
	unsigned long (*scan_objects)(void *s);
};
int register_shrinker(struct shrinker *s, const char *fmt, ...);
void *victim(void);

static struct kmem_cache *obj, *hw, *done, *other;

static unsigned long obj_scan(void *s)
{
	kmem_cache_free(obj, victim());
	kmem_cache_free(hw, victim());
	kmem_cache_free(done, victim());
	return s != 0;
}

static struct shrinker obj_shrinker = { .scan_objects = obj_scan };

int obj_init(void)
{
	obj = kmem_cache_create("obj", 8, 0, 0, NULL);
	hw = kmem_cache_create("hw", 8, 0, HW, NULL);
	done = kmem_cache_create("done", 8, 0, SLAB_RECLAIM_ACCOUNT, NULL);
	other = kmem_cache_create("other", 8, 0, 0, NULL);
	return register_shrinker(&obj_shrinker, "obj");
}
EOF2
(cd "$T" && git init -q && git add -A &&
	git -c user.name=T -c user.email=t@example.org commit -qm init) ||
	skip_all "git cannot commit here"
db=$TMP/c.db
ok "scan the fixture" "$GFPAUDIT" scan --db "$db" "$T"
# agree RULE DIR FILE: gfpaudit's series for RULE, applied by git am, and
# the series' .cocci run by spatch over DIR rewrite FILE alike.
agree() {
	ag_r=$1 ag_d=$2 ag_f=$3
	ok "$ag_r: patch it" "$GFPAUDIT" patch --db "$db" --rule "$ag_r" \
		--out "$TMP/out-$ag_r" "$T"
	ok "$ag_r: the series carries $ag_r.cocci" test -f "$TMP/out-$ag_r/$ag_r.cocci"
	git clone -q "$T" "$TMP/w-$ag_r"
	ok "$ag_r: git am the series" sh -c "cd '$TMP/w-$ag_r' &&
		ls '$TMP'/out-$ag_r/000[1-9]*.patch |
		xargs git -c user.name=T -c user.email=t@example.org am -q"
	cp -a "$T" "$TMP/s-$ag_r"
	ok "$ag_r: spatch -D patch with the series' .cocci" spatch --very-quiet \
		--sp-file "$TMP/out-$ag_r/$ag_r.cocci" -D patch --no-includes \
		--include-headers --dir "$TMP/s-$ag_r/$ag_d" --in-place
	ok "$ag_r: spatch and gfpaudit rewrite $ag_f byte for byte alike" \
		cmp "$TMP/s-$ag_r/$ag_f" "$TMP/w-$ag_r/$ag_f"
	ok "$ag_r: and spatch changed something" \
		sh -c "! cmp -s '$T/$ag_f' '$TMP/s-$ag_r/$ag_f'"
}
agree gfp-temporary mm mm/a.c
out=$(spatch --very-quiet --sp-file "$SRC_DIR/data/cocci/gfp-temporary.cocci" \
	-D report --no-includes --dir "$T/mm" 2>&1)
is "$(printf '%s\n' "$out" | grep -c 'GFP_TEMPORARY was removed in v4.14')" 6 \
	"-D report reports each use"
out=$(spatch --very-quiet --sp-file "$SRC_DIR/data/cocci/reclaimable-noop.cocci" \
	-D patch --no-includes --dir "$T/mm" 2>&1)
like "$out" "^\\+	b->data = kmalloc\\(len,   GFP_KERNEL\\);" \
	"reclaimable-noop.cocci rewrites kmalloc's GFP_TEMPORARY"
if printf '%s' "$out" | grep -q '__get_free_pages(GFP_KERNEL'; then r=1; else r=0; fi
is "$r" 0 "reclaimable-noop.cocci leaves the page allocator alone"

# gfp-param: the scan's sites.gfp_param, the patch, and spatch agree.
is "$(sql "$db" "SELECT count(*) FROM sites WHERE path = 'lib/p.c' AND gfp_param IS NOT NULL")" \
	6 "gfp_param: the 6 hard-coded sites of lib/p.c"
agree gfp-param lib lib/p.c
like "$(cat "$TMP/w-gfp-param/lib/p.c")" "	quoted = kmalloc\\(16,  gfp \\| __GFP_NOWARN\\);" \
	"the base mask is replaced, the modifier and the blanks kept"
like "$(cat "$TMP/w-gfp-param/lib/p.c")" "	return kmalloc\\(n, GFP_KERNEL\\);" \
	"a function without a gfp_t parameter is left alone"
out=$(spatch --very-quiet --sp-file "$SRC_DIR/data/cocci/gfp-param.cocci" \
	-D report --no-includes --dir "$T/lib" 2>&1)
is "$(printf '%s\n' "$out" | grep -c "hard-coded flags; the caller's gfp_t is")" 6 \
	"gfp-param.cocci -D report reports each site"

# shrinker-without-reclaimable: the flag is added where the file's own
# shrinker frees the cache, alike by gfpaudit and spatch.
agree shrinker-without-reclaimable fs fs/c.c
like "$(cat "$TMP/w-shrinker-without-reclaimable/fs/c.c")" \
	'obj = kmem_cache_create\("obj", 8, 0, SLAB_RECLAIM_ACCOUNT, NULL\);' \
	"a 0 flags argument becomes the flag"
like "$(cat "$TMP/w-shrinker-without-reclaimable/fs/c.c")" \
	'hw = kmem_cache_create\("hw", 8, 0, HW \| SLAB_RECLAIM_ACCOUNT, NULL\);' \
	"other flags keep theirs, with the flag added"
like "$(cat "$TMP/w-shrinker-without-reclaimable/fs/c.c")" \
	'other = kmem_cache_create\("other", 8, 0, 0, NULL\);' \
	"a cache the shrinker does not free is left alone"
out=$(spatch --very-quiet --sp-file \
	"$SRC_DIR/data/cocci/shrinker-without-reclaimable.cocci" -D report \
	--no-includes --dir "$T/fs" 2>&1)
is "$(printf '%s\n' "$out" | grep -c 'is freed by a shrinker but lacks SLAB_RECLAIM_ACCOUNT')" 2 \
	"shrinker-without-reclaimable.cocci -D report reports the two caches"
done_testing
