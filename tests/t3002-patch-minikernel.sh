#!/bin/sh
# gfpaudit patch on the minikernel: a series git am applies, subjects in
# each subsystem's style, To:/Cc: from MAINTAINERS, splits, the gfp_t
# parameter option, stale databases, the tree left untouched.
. "$(dirname "$0")/lib.sh"

MK=$TMP/mk
cp -a "$MINIKERNEL" "$MK"
cat >"$MK/MAINTAINERS" <<'MAINT'
List of maintainers (a test's own, kernel-like).

PROC FILESYSTEM
M:	Pat Proc <pat@example.org>
R:	Rae Review <rae@example.org>
L:	linux-fsdevel@example.org
S:	Maintained
F:	fs/proc/
X:	fs/proc/none.c

MEMORY MANAGEMENT
M:	Mo Mem <mo@example.org>
L:	linux-mm@example.org
F:	include/linux/gfp.h
F:	mm/
N:	mmflags

THE REST
M:	Linus <linus@example.org>
L:	linux-kernel@example.org
F:	*
F:	*/
MAINT
# History that teaches the fs/proc prefix ("proc:", not the table's):
# the touched file's own log.
git_id="-c user.name=T -c user.email=t@example.org"
(cd "$MK" && git init -q && git add -A && git $git_id commit -qm "Initial" &&
	echo '/* a */' >>fs/proc/base.c &&
	git $git_id commit -qam "proc: add notes" &&
	echo '/* b */' >>fs/proc/base.c &&
	git $git_id commit -qam "proc: more notes") ||
	skip_all "git cannot commit here"
tree_sum() { (cd "$1" && find . -path ./.git -prune -o -type f -print |
	LC_ALL=C sort | xargs sha256sum) | sha256sum; }
before=$(tree_sum "$MK")

db=$TMP/m.db
ok "scan the minikernel" "$GFPAUDIT" scan --db "$db" "$MK"
OUT=$TMP/out
ok "patch --rule gfp-temporary" "$GFPAUDIT" patch --db "$db" \
	--rule gfp-temporary --out "$OUT" --author "Pat Tester <pt@example.org>" "$MK"
is "$(ls "$OUT" | grep -c '\.patch$')" 8 "a cover letter and 7 patches"
ok "0000-cover-letter.patch exists" test -f "$OUT/0000-cover-letter.patch"
ok "the companion .cocci is beside the series" test -f "$OUT/gfp-temporary.cocci"
subjects=$(grep -h '^Subject:' "$OUT"/*.patch)
is "$subjects" "Subject: [PATCH 0/7] treewide: replace GFP_TEMPORARY with GFP_KERNEL
Subject: [PATCH 1/7] powerpc: replace GFP_TEMPORARY with GFP_KERNEL
Subject: [PATCH 2/7] misc: replace GFP_TEMPORARY with GFP_KERNEL
Subject: [PATCH 3/7] fs: replace GFP_TEMPORARY with GFP_KERNEL
Subject: [PATCH 4/7] proc: replace GFP_TEMPORARY with GFP_KERNEL
Subject: [PATCH 5/7] lib: replace GFP_TEMPORARY with GFP_KERNEL
Subject: [PATCH 6/7] mm: replace GFP_TEMPORARY with GFP_KERNEL
Subject: [PATCH 7/7] mm: remove GFP_TEMPORARY" \
	"subjects: subsystem prefixes (proc: from the tree's git log), removal last"
p4=$(ls "$OUT"/0004-*.patch)
like "$(cat "$p4")" "^To: Pat Proc <pat@example.org>" "fs/proc: To: its maintainer"
like "$(cat "$p4")" "^Cc: Rae Review <rae@example.org>, linux-fsdevel@example.org," \
	"fs/proc: Cc: reviewer and list"
like "$(cat "$p4")" "linux-kernel@example.org" "the catch-all section's list is Cc'd"
if grep -q linus "$p4"; then r=1; else r=0; fi
is "$r" 0 "the catch-all maintainer is not added when a section matched"
like "$(cat "$OUT"/0007-*.patch)" "^To: Mo Mem <mo@example.org>" \
	"N: regex patterns match (mmflags.h -> MEMORY MANAGEMENT)"
like "$(cat "$p4")" "^Signed-off-by: Pat Tester <pt@example.org>" "--author signs off"
like "$(cat "$p4")" "^ 1 file changed, 2 insertions\\(\\+\\), 2 deletions\\(-\\)" \
	"each patch has a diffstat"
like "$(cat "$p4")" "^This converts 2 uses in 1 file" "the message counts the uses"
cover=$(cat "$OUT/0000-cover-letter.patch")
uses=$(sql "$db" "SELECT count(*) FROM flag_uses WHERE flag = 'GFP_TEMPORARY'
	AND context <> 'declaration' AND NOT (context IN ('flag_table',
	'string_table') AND function IS NULL)")
like "$cover" "^Statistics: $uses uses converted, 1 definition and 2 flag-name table" \
	"cover letter: statistics ($uses uses, from the database)"
like "$cover" "^Found by gfpaudit [0-9.]+ \\(rule gfp-temporary\\) in Linux 4\\.13" \
	"cover letter: what found the uses, in which kernel"
like "$cover" "^To: .*Pat Proc" "cover letter: To: everyone"
if grep -q 'SUBJECT HERE\|BLURB HERE' "$OUT/0000-cover-letter.patch"; then r=1; else r=0; fi
is "$r" 0 "no placeholder is left in the cover letter"
dels=$(for f in "$OUT"/000[1-9]-*.patch; do git apply --numstat "$f"; done |
	awk '{ s += $2 } END { print s }')
is "$(sql "$db" "SELECT count(*), sum(number = 0), sum(deletions) FROM patches")" \
	"8	1	$dels" "one patches row per file, with stats"
is "$(tree_sum "$MK")" "$before" "the tree is not written"
ok "no scratch directory is left in the output" \
	sh -c "! ls -a '$OUT' | grep -q gfpaudit-work"

# git am applies it to the scanned tree; the result is what a plain
# substitution (and deleting the definition and table lines) gives.
W=$TMP/w
git clone -q "$MK" "$W"
ok "git am applies the series" sh -c "cd '$W' && ls '$OUT'/000[1-9]*.patch |
	xargs git $git_id am -q"
EXP=$TMP/exp
cp -a "$MK" "$EXP"
python3 - "$EXP" <<'PY'
import os, re, sys
for root, dirs, files in os.walk(sys.argv[1]):
    dirs[:] = [d for d in dirs if d != '.git']
    for n in files:
        if not n.endswith(('.c', '.h')):
            continue
        p = os.path.join(root, n)
        out, skip = [], False
        for line in open(p).read().split('\n'):
            if skip:
                skip = line.endswith('\\')
                continue
            if re.match(r'#define GFP_TEMPORARY\b', line):
                skip = line.endswith('\\')
                continue
            if re.match(r'\s*(\{.*GFP_TEMPORARY.*\},?|gfpflag_string\(GFP_TEMPORARY\),?)\s*\\?$', line):
                continue
            out.append(re.sub(r'\bGFP_TEMPORARY\b', 'GFP_KERNEL', line))
        open(p, 'w').write('\n'.join(out))
PY
ok "the patched tree is exactly the expected tree" diff -r -x .git "$EXP" "$W"
is "$(cd "$W" && git log --format=%an -1)" "Pat Tester" "authored by --author"

# Re-running into the same directory needs --force.
exit_is 2 "an existing series is not overwritten" "$GFPAUDIT" patch --db "$db" \
	--rule gfp-temporary --out "$OUT" "$MK"
ok "--force replaces it" "$GFPAUDIT" patch --db "$db" --rule gfp-temporary \
	--out "$OUT" --force "$MK"
is "$(sql "$db" "SELECT count(*) FROM patches")" 8 "a rewritten series replaces its rows"

# Splits.
ok "--split one" "$GFPAUDIT" patch --db "$db" --rule gfp-temporary \
	--split one --out "$TMP/one" "$MK"
is "$(ls "$TMP/one" | grep -c '^0001-treewide')" 1 "--split one: one treewide patch"
is "$(ls "$TMP/one" | grep -c '\.patch$')" 1 "--split one: 1 patch, no cover letter"
ok "--split file" "$GFPAUDIT" patch --db "$db" --rule gfp-temporary \
	--split file --out "$TMP/file" "$MK"
nf=$(sql "$db" "SELECT count(DISTINCT path) FROM flag_uses WHERE flag = 'GFP_TEMPORARY'")
is "$(ls "$TMP/file" | grep -c '\.patch$')" $((nf - 3 + 2)) \
	"--split file: one per file, the 3 removal files together, a cover"
like "$(grep -h '^Subject' "$TMP"/file/0002-*.patch)" "misc: replace" \
	"--split file keeps the subsystem prefix"

# --prefer-gfp-param: where the gfp_param classifier found the enclosing
# function's gfp_t parameter (4.13's kstrdup_quotable_cmdline), pass it
# instead.  End to end: the scan fills the column, the patch reads it.
is "$(sql "$db" "SELECT path || ':' || line || ':' || gfp_param FROM sites
	WHERE gfp_param IS NOT NULL")" "lib/string_helpers.c:11:gfp" \
	"the scan finds the ignored gfp_t parameter"
ok "--prefer-gfp-param" "$GFPAUDIT" patch --db "$db" --rule gfp-temporary \
	--prefer-gfp-param --out "$TMP/param" "$MK"
lib=$(cat "$TMP"/param/0005-lib-*.patch)
like "$lib" "^\\+	buffer = kmalloc\\(PAGE_SIZE, gfp\\);" "the caller's gfp is passed"
like "$lib" "1 passes the caller's gfp_t parameter" "the message says so"
like "$(cat "$TMP/param/0000-cover-letter.patch")" "\\(1 to the caller's gfp_t parameter\\)" \
	"the cover letter counts it"

# gfp-param (action suggest-param) writes the same change as its own
# series, for every function that ignores its gfp_t, not only
# GFP_TEMPORARY users.
ok "patch --rule gfp-param" "$GFPAUDIT" patch --db "$db" --rule gfp-param \
	--out "$TMP/gp" "$MK"
is "$(ls "$TMP/gp" | grep -c '\.patch$')" 1 "gfp-param: 1 patch, no cover letter"
gp=$(cat "$TMP"/gp/0001-*.patch)
like "$gp" "^Subject: \\[PATCH\\] lib: pass the caller's gfp_t instead of hard-coded flags" \
	"gfp-param: subject"
like "$gp" "^-	buffer = kmalloc\\(PAGE_SIZE, GFP_TEMPORARY\\);
\\+	buffer = kmalloc\\(PAGE_SIZE, gfp\\);" "gfp-param: the hard-coded flags become gfp"
is "$(printf '%s\n' "$gp" | grep -c '^[-+]	')" 2 "gfp-param: nothing else changes"
ok "gfp-param.cocci is beside the series" test -f "$TMP/gp/gfp-param.cocci"
W3=$TMP/w3
git clone -q "$MK" "$W3"
ok "git am applies the gfp-param series" sh -c "cd '$W3' && git $git_id am -q '$TMP'/gp/0001-*.patch"

# shrinker-without-reclaimable (action add) on the classifier fixture: a
# cache a shrinker empties gets SLAB_RECLAIM_ACCOUNT in its flags.
CL=$TMP/cl
cp -a "$SRC_DIR/tests/fixtures/classify" "$CL"
cat >"$CL/fs/more_caches.c" <<'EOF2'
// SPDX-License-Identifier: GPL-2.0
#include <linux/kernel.h>
#include <linux/slab.h>

#define SLAB_HWCACHE_ALIGN	0x00002000UL

static struct kmem_cache *zero_cache, *wide_cache;
static struct { int seeks; } more_shrinker;

void more_init(void)
{
	zero_cache = kmem_cache_create("zero", 16, 0, 0, NULL);
	wide_cache = kmem_cache_create("wide", 4096, 0,
				       SLAB_HWCACHE_ALIGN,	/* one line each */
				       NULL);
	register_shrinker(&more_shrinker);
}

void more_put(void *a, void *b)
{
	kmem_cache_free(zero_cache, a);
	kmem_cache_free(wide_cache, b);
}
EOF2
(cd "$CL" && git init -q && git add -A && git $git_id commit -qm init) ||
	skip_all "git cannot commit here"
cdb=$TMP/cl.db
ok "scan the classifier fixture" "$GFPAUDIT" scan --db "$cdb" "$CL"
is "$(sql "$cdb" "SELECT name FROM caches WHERE reclaimable = 0 AND has_shrinker = 1 ORDER BY name")" \
	"obj
wide
zero" "three shrunk caches lack SLAB_RECLAIM_ACCOUNT"
ok "patch --rule shrinker-without-reclaimable" "$GFPAUDIT" patch --db "$cdb" \
	--rule shrinker-without-reclaimable --split one --out "$TMP/add" "$CL"
add=$(cat "$TMP"/add/0001-*.patch)
like "$add" "^\\+	obj_cache = kmem_cache_create\\(\"obj\", 32, 0, SLAB_PANIC \\| SLAB_RECLAIM_ACCOUNT, NULL\\);" \
	"add: the flag joins the expression"
like "$add" "^\\+	zero_cache = kmem_cache_create\\(\"zero\", 16, 0, SLAB_RECLAIM_ACCOUNT, NULL\\);" \
	"add: a lone 0 becomes the flag"
like "$add" "^\\+				       SLAB_HWCACHE_ALIGN \\| SLAB_RECLAIM_ACCOUNT,	/\\* one line each \\*/" \
	"add: a multi-line call keeps its layout and comment"
like "$add" "This adds SLAB_RECLAIM_ACCOUNT at 3 sites in 2 files" "add: the message counts"
is "$(printf '%s\n' "$add" | grep -c '^[-+]	')" 6 "add: three lines change, nothing else"
W4=$TMP/w4
git clone -q "$CL" "$W4"
ok "git am applies the add series" sh -c "cd '$W4' && git $git_id am -q '$TMP'/add/0001-*.patch"
# Re-scanned, the patched tree has nothing left to add.
ok "re-scan the patched fixture" "$GFPAUDIT" scan --db "$TMP/w4.db" "$W4"
is "$(sql "$TMP/w4.db" "SELECT count(*) FROM caches WHERE reclaimable = 0 AND has_shrinker = 1")" \
	0 "after the series every shrunk cache is SLAB_RECLAIM_ACCOUNT"
# Never twice: a cache that has the flag is left alone even when selected.
sqlite3 "$cdb" "UPDATE caches SET reclaimable = 0, has_shrinker = 1 WHERE name = 'lonely'"
ok "patch again with the lonely cache selected" "$GFPAUDIT" patch --db "$cdb" \
	--rule shrinker-without-reclaimable --split one --out "$TMP/add2" "$CL"
is "$(sed -n '/^diff/,$p' "$TMP"/add2/0001-*.patch)" \
	"$(sed -n '/^diff/,$p' "$TMP"/add/0001-*.patch)" \
	"add: a cache that has the flag is not given it twice"
# A tree that changed since the scan.
sed -i 's/"zero", 16, 0, 0,/"zero", 16, 0, SLAB_PANIC,/' "$CL/fs/more_caches.c"
out=$("$GFPAUDIT" patch --db "$cdb" --rule shrinker-without-reclaimable \
	--out "$TMP/add3" "$CL" 2>&1)
is "$?" 2 "add: a stale argument exits 2"
like "$out" "fs/more_caches.c:12:48: expected the argument '0' \\(is the database stale\\?\\)" \
	"add: the stale argument is named"

# A database that does not match the tree any more.
ST=$TMP/stale
cp -a "$MK" "$ST"
sed -i '1i /* a new first line */' "$ST/mm/shmem.c"
out=$("$GFPAUDIT" patch --db "$db" --rule gfp-temporary --out "$TMP/st" "$ST" 2>&1)
is "$?" 2 "a stale database exits 2"
like "$out" "mm/shmem.c:16:48: expected GFP_TEMPORARY \\(is the database stale\\?\\)" \
	"the stale position is named"

# reclaimable-noop drops the flag where the classifier says it is a no-op.
sqlite3 "$db" "UPDATE sites SET flag_effective = 0,
	flag_effective_reason = 'kmalloc strips mobility bits before 4.20'
	WHERE (api = 'kmalloc' AND path = 'mm/shmem.c') OR
	      (path = 'drivers/misc/tmpbuf.c' AND line = 29)"
ok "patch --rule reclaimable-noop" "$GFPAUDIT" patch --db "$db" \
	--rule reclaimable-noop --out "$TMP/noop" "$MK"
noop=$(cat "$TMP"/noop/0*.patch)
like "$noop" "^\\+	return \\(void \\*\\)__get_free_pages\\(GFP_KERNEL, order\\);" \
	"__GFP_RECLAIMABLE is dropped from its expression"
like "$noop" "^\\+	name = kmalloc\\(len \\+ MFD_NAME_PREFIX_LEN \\+ 1, GFP_KERNEL\\);" \
	"GFP_TEMPORARY becomes GFP_KERNEL"
is "$(grep -Ec '^-#define (GFP_TEMPORARY|__GFP_RECLAIMABLE|___GFP_RECLAIMABLE)[[:space:]]' \
	"$TMP"/noop/0*.patch | awk -F: '{s+=$2} END {print s}')" 0 \
	"reclaimable-noop removes no definition"

# Bad input.
exit_is 2 "a report-only rule writes no patch" "$GFPAUDIT" patch --db "$db" \
	--rule sleep-in-atomic --out "$TMP/x" "$MK"
exit_is 2 "a missing database" "$GFPAUDIT" patch --db "$TMP/none.db" \
	--rule gfp-temporary "$MK"
ok "which is not created" test ! -e "$TMP/none.db"
exit_is 2 "an unknown rule" "$GFPAUDIT" patch --db "$db" --rule nope "$MK"
exit_is 2 "--rule is required" "$GFPAUDIT" patch --db "$db" "$MK"
exit_is 2 "a bad --split" "$GFPAUDIT" patch --db "$db" --rule gfp-temporary --split x "$MK"
exit_is 2 "TREE must exist" "$GFPAUDIT" patch --db "$db" --rule gfp-temporary "$TMP/none"
exit_is 2 "--maintainers script needs the tree's script" "$GFPAUDIT" patch \
	--db "$db" --rule gfp-temporary --maintainers script --out "$TMP/y" "$MK"
sqlite3 "$db" "UPDATE flag_uses SET path = '../escape.c' WHERE id = (SELECT min(id) FROM flag_uses WHERE flag = 'GFP_TEMPORARY')"
exit_is 2 "a path escaping the tree is refused" "$GFPAUDIT" patch --db "$db" \
	--rule gfp-temporary --out "$TMP/z" "$MK"
ok "nothing was written outside" test ! -e "$TMP/escape.c"
done_testing
