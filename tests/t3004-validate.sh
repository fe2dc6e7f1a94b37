#!/bin/sh
# gfpaudit validate on the minikernel: a good series passes; a series
# corrupted by hand (an edited hunk, a GFP_KENREL typo in a powerpc file,
# a removed macro still used) fails, naming the patch and the file.
. "$(dirname "$0")/lib.sh"

MK=$TMP/mk
cp -a "$MINIKERNEL" "$MK"
tree_sum() { (cd "$1" && find . -type f | LC_ALL=C sort | xargs sha256sum) |
	sha256sum; }
db=$TMP/v.db
ok "scan" "$GFPAUDIT" scan --db "$db" "$MK"
ok "patch" "$GFPAUDIT" patch --db "$db" --rule gfp-temporary --out "$TMP/good" "$MK"
before=$(tree_sum "$MK")
out=$("$GFPAUDIT" validate --db "$db" "$TMP/good" "$MK" 2>"$TMP/err")
is "$?" 0 "a good series validates"
like "$out" "^patch +file +check +result +detail" "results are printed as a table"
like "$out" "0001-powerpc-.*arch/powerpc/mm/pgtable.c +compile +pass" \
	"the powerpc file is compiled with powerpc headers"
like "$out" "arch/powerpc/mm/pgtable.c +compile +pass +names: every new identifier is declared: GFP_KERNEL" \
	"new identifiers are checked"
like "$out" "fs/proc/base.c +sparse +pass" "sparse runs on touched files"
like "$out" "drivers/misc/tmpbuf_user.c +sparse +pass +no new warnings \\(0 before, 0 after" \
	"sparse finds the file's own \"tmpbuf.h\" (it has no -iquote)"
like "$out" "0007-mm-remove-GFP_TEMPORARY.patch +- +impact +pass" \
	"nothing uses the removed macro any more"
is "$(sql "$db" "SELECT count(*) FROM validations WHERE result = 'fail'")" 0 \
	"no failure is stored"
is "$(sql "$db" "SELECT count(*) FROM validations WHERE check_name = 'apply' AND result = 'pass'")" \
	7 "an apply row per patch"
is "$(tree_sum "$MK")" "$before" "validate does not write the tree"

# 1. GFP_KENREL in an #ifdef branch of a powerpc file that no x86 build sees.
cp -r "$TMP/good" "$TMP/typo"
sed -i 's/^+\(.*\)GFP_KERNEL | __GFP_ZERO, 4/+\1GFP_KENREL | __GFP_ZERO, 4/' \
	"$TMP"/typo/0001-*.patch
ok "the typo is in the patch" grep -q KENREL "$TMP"/typo/0001-*.patch
"$GFPAUDIT" validate --db "$db" "$TMP/typo" "$MK" >"$TMP/out" 2>"$TMP/err"
is "$?" 1 "a GFP_KENREL typo fails validation"
like "$(cat "$TMP/err")" "FAIL 0001-powerpc-replace-GFP_TEMPORARY-with-GFP_KERNEL.patch: arch/powerpc/mm/pgtable.c: compile: names: undeclared identifier on lines this patch changed: GFP_KENREL" \
	"the failure names the patch, the file and the identifier"
is "$(sql "$db" "SELECT patch, path, check_name FROM validations WHERE result = 'fail'")" \
	"0001-powerpc-replace-GFP_TEMPORARY-with-GFP_KERNEL.patch	arch/powerpc/mm/pgtable.c	compile" \
	"the failure is stored"

# 2. The same typo on a line the parse does compile: a new clang error.
cp -r "$TMP/good" "$TMP/typo2"
sed -i 's/^+\(.*\)kmalloc(PAGE_SIZE, GFP_KERNEL)/+\1kmalloc(PAGE_SIZE, GFP_KENREL)/' \
	"$TMP"/typo2/0005-*.patch
"$GFPAUDIT" validate --db "$db" "$TMP/typo2" "$MK" >"$TMP/out" 2>"$TMP/err"
is "$?" 1 "a typo on a compiled line fails"
like "$(cat "$TMP/out")" "lib/string_helpers.c +compile +fail +1 new error\\(s\\): [0-9]+: use of undeclared identifier 'GFP_KENREL' \\(a line this patch changed\\)" \
	"clang's new error is reported with its line"

# 3. A hunk edited by hand so that it no longer applies.
cp -r "$TMP/good" "$TMP/hunk"
sed -i 's/^-\(.*\)name = kmalloc(len/-\1name = kzalloc(len/' "$TMP"/hunk/0006-*.patch
"$GFPAUDIT" validate --db "$db" "$TMP/hunk" "$MK" >"$TMP/out" 2>"$TMP/err"
is "$?" 1 "an edited hunk fails validation"
like "$(cat "$TMP/err")" "FAIL 0006-mm-replace-GFP_TEMPORARY-with-GFP_KERNEL.patch: apply: git am: " \
	"the patch that does not apply is named"
like "$(cat "$TMP/out")" "0007-mm-remove-GFP_TEMPORARY.patch +- +apply +pass" \
	"later patches are still tried"
like "$(cat "$TMP/out")" "impact +fail .*mm/shmem.c:16 uses GFP_TEMPORARY" \
	"the unconverted user of the removed macro is found"

# 4. A patch dropped from the series: its users of the macro remain.
cp -r "$TMP/good" "$TMP/drop"
rm "$TMP"/drop/0003-*.patch
"$GFPAUDIT" validate --db "$db" "$TMP/drop" "$MK" >"$TMP/out" 2>"$TMP/err"
is "$?" 1 "a series missing a conversion fails"
like "$(cat "$TMP/err")" "FAIL 0007-mm-remove-GFP_TEMPORARY.patch: impact: 2 use\\(s\\) of removed macros remain: fs/seq_file.c:8 uses GFP_TEMPORARY; fs/namei.c:21 uses" \
	"impact names the patch removing the macro and the users left (code only)"

# Bad input.
exit_is 2 "DIR must exist" "$GFPAUDIT" validate --db "$db" "$TMP/none" "$MK"
mkdir "$TMP/empty"
exit_is 2 "an empty series" "$GFPAUDIT" validate --db "$db" "$TMP/empty" "$MK"
mkdir "$TMP/evil"
printf 'diff --git a/../x.c b/../x.c\n--- a/../x.c\n+++ b/../x.c\n@@ -1 +1 @@\n-a\n+b\n' \
	>"$TMP/evil/0001-x.patch"
out=$("$GFPAUDIT" validate --db "$db" "$TMP/evil" "$MK" 2>&1)
is "$?" 2 "a patch with a path outside the tree is refused"
like "$out" "unsafe path '../x.c'" "and the path is named"
exit_is 2 "want DIR and TREE" "$GFPAUDIT" validate --db "$db" "$TMP/good"
done_testing
