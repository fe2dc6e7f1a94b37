#!/bin/sh
# The real 6.1 tree with GFP_TEMPORARY re-introduced: scan -> patch ->
# git am gives back the original tree byte for byte, also when the
# definition lives in another header; validate on a powerpc sub-series
# compiles it as before (sparse, on the unconfigured tree, proves
# nothing: inconclusive), and fails on a GFP_KENREL typo.  The gfp-param
# series of the pristine 6.1 mm/ replaces only base masks.
. "$(dirname "$0")/lib.sh"

P=$(linux61_pristine) || skip_all "linux-source-6.1 is not installed"
INJ=$SRC_DIR/tests/lib/inject-temporary.py
T=$(linux61_copy linux-6.1-temporary python3 "$INJ" . \
	"$GFPAUDIT_CACHE/linux-6.1-temporary.manifest") ||
	skip_all "cannot make the injected 6.1 copy"
# The same injection, then the definition moved from gfp_types.h to gfp.h.
MOVE='import sys
a, b = "include/linux/gfp_types.h", "include/linux/gfp.h"
src = open(a).read().split("\n")
i = next(k for k, l in enumerate(src) if l.startswith("#define GFP_TEMPORARY"))
d = src[i:i + 2]
del src[i:i + 2]
open(a, "w").write("\n".join(src))
dst = open(b).read().split("\n")
j = next(k for k, l in enumerate(dst) if l.startswith("#include <linux/gfp_types.h>"))
dst[j + 1:j + 1] = d
open(b, "w").write("\n".join(dst))'
T2=$(linux61_copy linux-6.1-temporary-gfph sh -c 'python3 "$1" . "$2" &&
	python3 -c "$3"' sh "$INJ" "$GFPAUDIT_CACHE/linux-6.1-temporary-gfph.manifest" \
	"$MOVE") || skip_all "cannot make the second injected 6.1 copy"
ok "the second copy has the definition in gfp.h" \
	grep -q '^#define GFP_TEMPORARY' "$T2/include/linux/gfp.h"

roundtrip() {
	name=$1 tree=$2 manifest=$3 hdr=$4 from=${5:-}
	db=$TMP/$name.db
	# The second tree differs from the first in two headers: start from
	# the first one's database, and the incremental scan re-parses those.
	[ -n "$from" ] && cp "$from" "$db"
	ok "$name: scan" nice "$GFPAUDIT" scan --depth lexical -j2 --no-progress \
		--db "$db" "$tree"
	want=$(($(wc -l <"$manifest") + 3))
	is "$(sql "$db" "SELECT count(*) FROM flag_uses WHERE flag = 'GFP_TEMPORARY'")" \
		"$want" "$name: every injected use, the definition and 2 table entries"
	is "$(sql "$db" "SELECT path FROM flag_uses WHERE flag = 'GFP_TEMPORARY' AND context = 'declaration'")" \
		"$hdr" "$name: the definition is found in $hdr"
	ok "$name: patch" "$GFPAUDIT" patch --db "$db" --rule gfp-temporary \
		--maintainers builtin --out "$TMP/$name" "$tree"
	last=$(ls "$TMP/$name" | grep '\.patch$' | tail -1)
	like "$last" "mm-remove-GFP_TEMPORARY.patch" "$name: the removal comes last"
	like "$(cat "$TMP/$name/$last")" "^--- a/$hdr" "$name: it edits $hdr"
	grep -h '^diff --git a/' "$TMP/$name"/0*.patch |
		sed 's|^diff --git a/\([^ ]*\) .*|\1|' | LC_ALL=C sort -u >"$TMP/$name.touched"
	diff -rq -x .gfpaudit-ready "$tree" "$P" |
		sed -n "s|^Files $tree/\\(.*\\) and .* differ\$|\\1|p" |
		LC_ALL=C sort >"$TMP/$name.differ"
	ok "$name: the series touches exactly the files the injection changed" \
		cmp "$TMP/$name.touched" "$TMP/$name.differ"
	W=$TMP/$name.w
	mkdir "$W"
	(cd "$tree" && tar cf - -T "$TMP/$name.touched") | (cd "$W" && tar xf -)
	(cd "$W" && git init -q && git add -A &&
		git -c user.name=T -c user.email=t@example.org commit -qm base)
	ok "$name: git am applies the series" sh -c "cd '$W' &&
		ls '$TMP/$name'/*.patch | grep -v /0000-cover-letter.patch |
		xargs git -c user.name=T -c user.email=t@example.org am -q"
	bad=0
	while read -r f; do
		cmp -s "$W/$f" "$P/$f" || { echo "# differs: $f"; bad=$((bad + 1)); }
	done <"$TMP/$name.touched"
	is "$bad" 0 "$name: every file is byte for byte the original 6.1 file"
}
roundtrip default "$T" "$GFPAUDIT_CACHE/linux-6.1-temporary.manifest" \
	include/linux/gfp_types.h
roundtrip gfph "$T2" "$GFPAUDIT_CACHE/linux-6.1-temporary-gfph.manifest" \
	include/linux/gfp.h "$TMP/default.db"
is "$(sql "$TMP/gfph.db" "SELECT files_parsed FROM runs ORDER BY id DESC LIMIT 1")" 2 \
	"gfph: only the two changed headers were re-parsed"

# Validation of the powerpc part, with the tree's own scripts.
db=$TMP/pp.db
cp "$TMP/default.db" "$db"
sqlite3 "$db" "DELETE FROM flag_uses WHERE path NOT LIKE 'arch/powerpc/%'"
ok "powerpc sub-series, To:/Cc: from scripts/get_maintainer.pl" \
	"$GFPAUDIT" patch --db "$db" --rule gfp-temporary --maintainers script \
	--out "$TMP/pp" "$T"
pp=$(ls "$TMP"/pp/0001-*.patch)
like "$(cat "$pp")" "^Subject: \\[PATCH\\] powerpc: replace GFP_TEMPORARY" \
	"powerpc: subject prefix"
like "$(cat "$pp")" "linuxppc-dev@lists.ozlabs.org" "get_maintainer.pl's list is Cc'd"
like "$(cat "$pp")" "^To: .*Michael Ellerman <mpe@ellerman.id.au>" \
	"get_maintainer.pl's maintainer is in To:"
out=$("$GFPAUDIT" validate --db "$db" "$TMP/pp" "$T" 2>"$TMP/err")
is "$?" 4 "the powerpc series has no failure, but an inconclusive check"
like "$out" "arch/powerpc/sysdev/fsl_lbc.c +compile +pass" "fsl_lbc.c compiles as before"
like "$out" "arch/powerpc/sysdev/fsl_lbc.c +sparse +inconclusive +no new warnings, but sparse reported [0-9]+ error\\(s\\)" \
	"sparse, which stops in the unconfigured tree's headers, proves nothing"
like "$out" "checkpatch +pass" "checkpatch.pl finds no error"
cp -r "$TMP/pp" "$TMP/ppbad"
sed -i 's/^+\(.*\)kzalloc(\(.*\)GFP_KERNEL)/+\1kzalloc(\2GFP_KENREL)/' \
	"$TMP"/ppbad/0001-*.patch
ok "the typo is in" grep -q '^+.*GFP_KENREL' "$TMP"/ppbad/0001-*.patch
"$GFPAUDIT" validate --db "$db" --no-sparse "$TMP/ppbad" "$T" >"$TMP/out" 2>"$TMP/err"
is "$?" 1 "a GFP_KENREL typo in powerpc files fails validation"
like "$(cat "$TMP/err")" "FAIL 0001-powerpc-replace-GFP_TEMPORARY-with-GFP_KERNEL.patch: arch/powerpc/.*: compile: .*GFP_KENREL" \
	"the failure names the patch, the powerpc file and the identifier"

# gfp-param on the pristine 6.1 mm/ (single-file ASTs: the classifier
# needs the function's parameters): every hunk replaces one base mask by
# the caller's gfp_t, and mm/slab.c cache_grow_begin(), whose flags
# come from its parameter through local_flags, is neither a finding nor
# a hunk (issue 17).
db=$TMP/mm.db
ok "mm/: scan" nice "$GFPAUDIT" scan --depth single -j2 --no-progress \
	--db "$db" "$P" mm
is "$(sql "$db" "SELECT count(*) FROM sites WHERE path = 'mm/slab.c'
	AND function = 'cache_grow_begin' AND flags LIKE 'local_flags%'")" 1 \
	"mm/slab.c: cache_grow_begin's alloc_slabmgmt(..., local_flags & ~GFP_CONSTRAINT_MASK) is a site"
is "$(sql "$db" "SELECT count(*) FROM sites WHERE path = 'mm/slab.c'
	AND function = 'cache_grow_begin' AND gfp_param IS NOT NULL")" 0 \
	"...and not a gfp-param finding"
ok "mm/: patch --rule gfp-param" "$GFPAUDIT" patch --db "$db" --rule gfp-param \
	--maintainers none --out "$TMP/gp" "$P"
ls "$TMP"/gp/0*.patch | grep -v /0000-cover-letter.patch >"$TMP/gp.list"
ok "mm/: every hunk replaces only a base mask by the parameter" \
	sh -c 'xargs python3 "$1" "$2" <"$3"' sh "$SRC_DIR/tests/lib/param-hunks.py" \
	"$SRC_DIR/lib/gfpmask.c" "$TMP/gp.list"
is "$(cat $(cat "$TMP/gp.list") | grep -c 'local_flags')" 0 "mm/slab.c's local_flags is not rewritten"
done_testing
