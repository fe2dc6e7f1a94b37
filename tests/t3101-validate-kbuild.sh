#!/bin/sh
# gfpaudit validate on a configured 6.1 tree (make defconfig prepare):
# sparse runs through kbuild's `make C=2 CHECK=sparse dir/file.o` (its
# lines marked by -fdiagnostic-prefix) for the objects the .config
# builds, the direct call for the others, and the tree is not written.
. "$(dirname "$0")/lib.sh"

command -v sparse >/dev/null 2>&1 || skip_all "sparse is not installed"
command -v make >/dev/null 2>&1 || skip_all "make is not installed"
tree=$(linux61_copy linux-6.1-configured sh -c \
	'make -s defconfig >/dev/null && make -s prepare >/dev/null') ||
	skip_all "cannot configure the 6.1 copy"
grep -q '^# CONFIG_BOOT_CONFIG is not set' "$tree/.config" ||
	skip_all "this defconfig builds fs/proc/bootconfig.c"

# A three-patch series made with git from the tree's own files:
# 1. a hard-coded mask (0xcc0 for GFP_KERNEL) in fs/proc/generic.c, a new
#    sparse warning (an int where gfp_t is restricted);
# 2. a clean change to fs/proc/inode.c;
# 3. the same hard-coded mask in fs/proc/bootconfig.c, which the
#    defconfig does not build: the direct sparse call checks it.
R=$TMP/r
mkdir -p "$R/fs/proc"
for f in generic.c inode.c bootconfig.c; do
	cp "$tree/fs/proc/$f" "$R/fs/proc/$f"
done
git_id="-c user.name=T -c user.email=t@example.org"
commit() { git $git_id commit -qam "$1"; }
(cd "$R" && git init -q && git add -A && git $git_id commit -qm base &&
	sed -i '456s/kmalloc(qstr.len + 1, GFP_KERNEL)/kmalloc(qstr.len + 1, 0xcc0)/' \
		fs/proc/generic.c && commit "proc: hard-code the mask" &&
	sed -i '523s/GFP_KERNEL)/GFP_KERNEL | __GFP_NOWARN)/' fs/proc/inode.c &&
	commit "proc: quiet the opener allocation" &&
	sed -i '34s/GFP_KERNEL)/0xcc0)/' fs/proc/bootconfig.c &&
	commit "proc: hard-code the bootconfig mask" &&
	git format-patch -q -o "$TMP/series" HEAD~3) ||
	skip_all "git cannot make the series"
is "$(cd "$R" && git diff --stat HEAD~3 | tail -1)" \
	" 3 files changed, 3 insertions(+), 3 deletions(-)" "the series changes one line per file"

db=$TMP/k.db
"$TOOLS/mkdb" "$db"
touch "$TMP/stamp"
mkdir "$TMP/vt"
TMPDIR=$TMP/vt "$GFPAUDIT" validate --db "$db" --no-compile --no-checkpatch "$TMP/series" \
	"$tree" >"$TMP/out" 2>"$TMP/err"
is "$?" 1 "the series with a new sparse warning fails"
out=$(cat "$TMP/out")
like "$out" "0001-proc-hard-code-the-mask.patch +fs/proc/generic.c +sparse +fail +1 new warning\\(s\\) \\(kbuild: make C=2 CHECK='sparse -fdiagnostic-prefix' fs/proc/generic.o\\): 456: warning: incorrect type in argument 2 \\(different base types\\) \\(a line this patch changed\\)" \
	"kbuild's sparse reports the new warning on the changed line"
like "$(cat "$TMP/err")" "FAIL 0001-proc-hard-code-the-mask.patch: fs/proc/generic.c: sparse: 1 new warning\\(s\\) \\(kbuild: " \
	"the failure is on stderr, naming kbuild"
like "$out" "0002-proc-quiet-the-opener-allocation.patch +fs/proc/inode.c +sparse +pass +no new warnings \\(kbuild: make C=2 CHECK='sparse -fdiagnostic-prefix' fs/proc/inode.o; " \
	"a clean change passes kbuild's sparse"
like "$out" "0003-proc-hard-code-the-bootconfig-mask.patch +fs/proc/bootconfig.c +sparse +fail +1 new warning\\(s\\): 34: incorrect type in argument 2" \
	"an object the .config does not build gets the direct sparse call"
if grep -q 'bootconfig.c.*kbuild' "$TMP/out"; then r=1; else r=0; fi
is "$r" 0 "...not kbuild"
is "$(sql "$db" "SELECT path || ' ' || result FROM validations WHERE check_name = 'sparse' AND detail LIKE '%kbuild: make C=2 %' ORDER BY path")" \
	"fs/proc/generic.c fail
fs/proc/inode.c pass" "the kbuild results are stored"
is "$(find "$tree" -newer "$TMP/stamp" | head -5)" "" "validate does not write the tree"
is "$(ls -A "$TMP/vt")" "" "the scratch copy and the kbuild farm are removed"
done_testing
