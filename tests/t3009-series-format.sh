#!/bin/sh
# gfpaudit patch writes a series as kernel people mail one (issue 17,
# part 4): base-commit: naming the tree's HEAD only when it is true,
# [RFC PATCH v2 n/m] subjects, --to/--cc beside the maintainers without
# duplicates, a cover letter with no local path and none for one patch,
# prefixes from the touched files' own history, Link:/Fixes: trailers,
# and bad options refused before anything is written.
. "$(dirname "$0")/lib.sh"

command -v git >/dev/null || skip_all "git is not installed"
MK=$TMP/mk
cp -a "$MINIKERNEL" "$MK"
cat >"$MK/MAINTAINERS" <<'MAINT'
PROC FILESYSTEM
M:	Pat Proc <pat@example.org>
L:	linux-fsdevel@example.org
F:	fs/proc/

MEMORY MANAGEMENT
M:	Mo Mem <mo@example.org>
L:	linux-mm@example.org
F:	mm/
F:	include/linux/gfp.h
MAINT
# mm/shmem.c's own history says "mm/shmem:" where its path says "mm";
# lib/string_helpers.c was only touched by treewide changes, which say
# nothing of lib's prefix.
git_id="-c user.name=T -c user.email=t@example.org"
(cd "$MK" && git init -q && git add -A && git $git_id commit -qm "Initial" &&
	echo '/* a */' >>mm/shmem.c && git $git_id commit -qam "mm/shmem: a" &&
	echo '/* b */' >>mm/shmem.c && git $git_id commit -qam "mm/shmem: b" &&
	echo '/* c */' >>mm/shmem.c && git $git_id commit -qam "mm: c" &&
	echo '/* d */' >>lib/string_helpers.c &&
	git $git_id commit -qam "treewide: d" &&
	echo '/* e */' >>lib/string_helpers.c &&
	git $git_id commit -qam "treewide: e") ||
	skip_all "git cannot commit here"
head=$(git -C "$MK" rev-parse HEAD)
db=$TMP/m.db
ok "scan the minikernel" "$GFPAUDIT" scan --db "$db" "$MK"

# The header block of a message, continuation lines joined.
headers() { sed '/^$/q' "$1" | sed -e ':a' -e '$!N;s/\n    / /;ta' -e 'P;D'; }

OUT=$TMP/v2
ok "patch -v 2 --rfc --to --cc" "$GFPAUDIT" patch --db "$db" \
	--rule gfp-temporary --maintainers builtin -v 2 --rfc \
	--to "Andrew Morton <akpm@example.org>" --to akpm@example.org \
	--cc list@example.org --cc "PAT@example.org" --out "$OUT" "$MK"
n=$(ls "$OUT" | grep -c '\.patch$')
is "$n" 8 "a cover letter and 7 patches"
is "$(ls "$OUT" | grep -c '^v2-[0-9]\{4\}-.*\.patch$')" 8 "file names say v2"
is "$(grep -l "^base-commit: $head\$" "$OUT"/*.patch | wc -l)" 8 \
	"every message ends with base-commit: the tree's HEAD"
is "$(grep -h '^Subject:' "$OUT"/*.patch | sed 's/\].*/]/' | sort -u | tr '\n' ' ')" \
	"Subject: [RFC PATCH v2 0/7] Subject: [RFC PATCH v2 1/7] Subject: [RFC PATCH v2 2/7] Subject: [RFC PATCH v2 3/7] Subject: [RFC PATCH v2 4/7] Subject: [RFC PATCH v2 5/7] Subject: [RFC PATCH v2 6/7] Subject: [RFC PATCH v2 7/7] " \
	"subjects are [RFC PATCH v2 n/7]"
like "$(grep -h '^Subject:' "$OUT"/v2-000[1-9]-*.patch)" \
	"^Subject: \\[RFC PATCH v2 [0-9]/7\\] mm/shmem: replace GFP_TEMPORARY" \
	"mm/shmem.c's own log gives mm/shmem:"
like "$(grep -h '^Subject:' "$OUT"/v2-000[1-9]-*.patch)" \
	"^Subject: \\[RFC PATCH v2 [0-9]/7\\] lib: replace GFP_TEMPORARY" \
	"treewide: subjects do not make a prefix (lib: from the path)"
bad=0
for f in "$OUT"/*.patch; do
	h=$(headers "$f")
	printf '%s\n' "$h" | grep -q '^To: Andrew Morton <akpm@example.org>' ||
		{ echo "# no --to in $f"; bad=1; }
	printf '%s\n' "$h" | grep -q '^Cc: .*list@example.org' ||
		{ echo "# no --cc in $f"; bad=1; }
	[ "$(printf '%s\n' "$h" | grep -io 'akpm@example.org' | wc -l)" = 1 ] ||
		{ echo "# akpm twice in $f"; bad=1; }
done
is "$bad" 0 "every message: --to first in To:, --cc in Cc:, an address once"
proc=$(ls "$OUT"/v2-000[1-9]-*proc*.patch)
ph=$(headers "$proc")
like "$ph" "^To: Andrew Morton <akpm@example.org>, Pat Proc <pat@example.org>" \
	"fs/proc: the maintainer is still in To:"
is "$(printf '%s\n' "$ph" | grep -io 'pat@example.org' | wc -l)" 1 \
	"--cc of the maintainer's address (other case) is not added again"
like "$ph" "^Cc: list@example.org, linux-fsdevel@example.org" \
	"fs/proc: Cc: the --cc, then the list"
mmh=$(headers "$(ls "$OUT"/v2-000[1-9]-*mm-shmem*.patch)")
like "$mmh" "^Cc: list@example.org, PAT@example.org, linux-mm@example.org" \
	"where nobody else has it, the --cc address is Cc'd"
cover=$OUT/v2-0000-cover-letter.patch
like "$(headers "$cover")" "^To: Andrew Morton <akpm@example.org>, Pat Proc <pat@example.org>, Mo Mem <mo@example.org>" \
	"the cover letter goes to everyone"
if grep -qF "$TMP" "$cover"; then r=1; else r=0; fi
is "$r" 0 "the cover letter holds no local path"
if grep -qiE -- '--db|--out|"db":|options' "$cover"; then r=1; else r=0; fi
is "$r" 0 "nor the options of the scan or of patch"
like "$(cat "$cover")" "^Found by gfpaudit [0-9.]+ \\(rule gfp-temporary\\) in Linux 4\\.13" \
	"it says what found the uses, in which kernel"
like "$(tr '\n' ' ' <"$cover")" "gfp-temporary\.cocci, beside the patches, is a semantic patch for spatch \(make coccicheck MODE=patch COCCI=gfp-temporary\.cocci\): it rewrites each GFP_TEMPORARY that spatch parses" \
	"the cover letter says what the companion covers, as its rule says"
if grep -q "re-derives" "$cover"; then r=1; else r=0; fi
is "$r" 0 "and does not claim it re-derives the series"
for f in "$OUT"/v2-000[1-9]-*.patch; do
	sed -n '/^Link: /,/^Signed-off-by: /p' "$f"
done >"$TMP/trailers"
is "$(grep -c '^Link: https://git.kernel.org/torvalds/c/0ee931c4e31a$' "$TMP/trailers")" 7 \
	"every patch links the upstream commit, before Signed-off-by"
is "$(grep -c '^Fixes:' "$OUT"/*.patch | awk -F: '{ s += $NF } END { print s }')" 0 \
	"doing what upstream did is not a Fixes:"

W=$TMP/w
git clone -q "$MK" "$W"
ok "git am applies the series onto the tree" sh -c "cd '$W' &&
	ls '$OUT'/v2-000[1-9]-*.patch | xargs git $git_id am -q"
is "$(git -C "$W" rev-list --count "$head..HEAD")" 7 "seven commits on HEAD"
is "$(git -C "$W" grep -c GFP_TEMPORARY -- '*.c' | wc -l)" 0 \
	"no .c file uses GFP_TEMPORARY after it"

# One patch: no cover letter; what it would have said is below the ---.
ok "--split one --subject-prefix" "$GFPAUDIT" patch --db "$db" \
	--rule gfp-temporary --maintainers none --split one \
	--subject-prefix "PATCH mm-unstable" --out "$TMP/one" "$MK"
is "$(ls "$TMP/one" | grep '\.patch$')" \
	"0001-treewide-replace-GFP_TEMPORARY-with-GFP_KERNEL.patch" \
	"one patch, no cover letter"
one=$(cat "$TMP"/one/0001-*.patch)
like "$one" "^Subject: \\[PATCH mm-unstable\\] treewide: replace" \
	"--subject-prefix, and no 1/1"
like "$(printf '%s\n' "$one" | sed -n '/^---$/,/^diff /p')" \
	"^Statistics: 15 uses converted, 1 definition and 2 flag-name table" \
	"the statistics are notes below the ---"
like "$one" "^base-commit: $head\$" "a lone patch has base-commit: too"
W2=$TMP/w2
git clone -q "$MK" "$W2"
ok "git am applies the lone patch" sh -c "cd '$W2' &&
	git $git_id am -q '$TMP'/one/0001-*.patch"
is "$(git -C "$W2" log -1 --format=%B | grep -c '^Statistics')" 0 \
	"the notes are not in the commit message"

# No repository: the path guess, and no base-commit: at all.
NG=$TMP/nogit
cp -a "$MK" "$NG"
rm -rf "$NG/.git"
ngdb=$TMP/ng.db
ok "scan the copy without .git" "$GFPAUDIT" scan --db "$ngdb" "$NG"
ok "patch it" "$GFPAUDIT" patch --db "$ngdb" --rule gfp-temporary \
	--maintainers none --out "$TMP/ng" "$NG"
is "$(grep -l 'base-commit' "$TMP"/ng/*.patch | wc -l)" 0 \
	"no repository: no base-commit:"
like "$(grep -h '^Subject:' "$TMP"/ng/*.patch)" "\\] mm: replace GFP_TEMPORARY" \
	"no history: mm: from the path, where the log said mm/shmem:"

# A touched file changed since HEAD: HEAD is not the base, say so.
echo '/* local */' >>"$MK/fs/proc/base.c"
"$GFPAUDIT" patch --db "$db" --rule gfp-temporary --maintainers none \
	--out "$TMP/dirty" "$MK" >/dev/null 2>"$TMP/dirty.err"
is "$?" 0 "a tree with local changes still gets its series"
is "$(grep -l 'base-commit' "$TMP"/dirty/*.patch | wc -l)" 0 \
	"but no base-commit: (HEAD does not hold those files)"
like "$(cat "$TMP/dirty.err")" "warning: files the series touches differ from .*HEAD" \
	"and a warning says why"
git -C "$MK" checkout -q fs/proc/base.c

# A rule whose findings are a commit's bug says Fixes:, first.
mkdir "$TMP/rules"
sed -e 's/^name: .*/name: temp-fix/' \
	-e '/^upstream:/a fixes: 0123456789ab ("mm: add GFP_TEMPORARY")' \
	"$SRC_DIR/data/gfp-temporary.rule" >"$TMP/rules/temp-fix.rule"
ok "patch --rule with fixes:" "$GFPAUDIT" patch --db "$db" --rules "$TMP/rules" \
	--rule temp-fix --maintainers none --split one --out "$TMP/fix" "$MK"
is "$(sed -n '/^Fixes: /,/^Signed-off-by: /p' "$TMP"/fix/0001-*.patch | cut -c1-14)" \
	"Fixes: 0123456
Link: https://
Signed-off-by:" "Fixes:, Link:, Signed-off-by:, in that order"
like "$(cat "$TMP"/fix/0001-*.patch)" '^Fixes: 0123456789ab \("mm: add GFP_TEMPORARY"\)$' \
	"Fixes: names the commit as the rule does"
sed -i 's/^fixes: .*/fixes: 0123abc ("short")/' "$TMP/rules/temp-fix.rule"
out=$("$GFPAUDIT" rules --check "$TMP/rules/temp-fix.rule" 2>&1)
is "$?" 2 "a fixes: with a short hash is refused"
like "$out" "temp-fix.rule:[0-9]+: fixes: want SHA" "naming the file, line and key"

# Bad options: one line, exit 2, nothing written.
badopt() {
	_d=$1; shift
	"$GFPAUDIT" patch --db "$db" --rule gfp-temporary --out "$TMP/bad" \
		"$@" "$MK" >"$TMP/bad.out" 2>"$TMP/bad.err"
	is "$?" 2 "$_d: exit 2"
	is "$(wc -l <"$TMP/bad.err")" 1 "$_d: one line"
	like "$(cat "$TMP/bad.err")" "^gfpaudit patch: " "$_d: names the command"
	ok "$_d: nothing written" test ! -e "$TMP/bad"
}
badopt "-v 0" -v 0
badopt "-v two" -v two
badopt "--reroll-count 2x" --reroll-count 2x
badopt "-v without a value" -v
badopt "--to without an address" --to nobody
badopt "--cc of two addresses" --cc "a@example.org, b@example.org"
badopt "--to with a line break" --to "$(printf 'a@example.org\nBcc: x@y.org')"
badopt "--subject-prefix with a bracket" --subject-prefix "PATCH] x"
done_testing
