#!/bin/sh
# gfpaudit validate on a configured 6.1 tree (make defconfig prepare):
# each touched object is built by the tree's own kbuild (`make
# dir/file.o`, with C=2 for sparse) before and after the series; a header
# through objects of the .config that include it, and inconclusive when
# none does.  The tree is not written.
. "$(dirname "$0")/lib.sh"

command -v make >/dev/null 2>&1 || skip_all "make is not installed"
command -v gcc >/dev/null 2>&1 || skip_all "gcc is not installed"
tree=$(linux61_copy linux-6.1-configured sh -c \
	'make -s defconfig >/dev/null && make -s prepare >/dev/null') ||
	skip_all "cannot configure the 6.1 copy"
grep -q '^# CONFIG_NTFS3_FS is not set' "$tree/.config" ||
	skip_all "this defconfig builds fs/ntfs3"

# A five-patch series made with git from the tree's own files:
# 1. GFP_KENREL in fs/proc/generic.c, an object the defconfig builds;
# 2. a clean change to fs/proc/inode.c;
# 3. a clean change to fs/proc/internal.h, which fs/proc's objects include;
# 4. a misspelt flag in the same header: an error in every includer;
# 5. a change to fs/ntfs3/debug.h, which no object of the defconfig
#    includes (CONFIG_NTFS3_FS is not set).
R=$TMP/r
mkdir -p "$R/fs/proc" "$R/fs/ntfs3"
for f in proc/generic.c proc/inode.c proc/internal.h ntfs3/debug.h; do
	cp "$tree/fs/$f" "$R/fs/$f"
done
git_id="-c user.name=T -c user.email=t@example.org"
commit() { git $git_id commit -qam "$1"; }
(cd "$R" && git init -q && git add -A && git $git_id commit -qm base &&
	sed -i '456s/GFP_KERNEL)/GFP_KENREL)/' fs/proc/generic.c &&
	commit "proc: misspell the mask" &&
	sed -i '523s/GFP_KERNEL)/GFP_KERNEL | __GFP_NOWARN)/' fs/proc/inode.c &&
	commit "proc: quiet the opener allocation" &&
	sed -i '79s/return pde->flags & PROC_ENTRY_PERMANENT;/return !!(pde->flags \& PROC_ENTRY_PERMANENT);/' \
		fs/proc/internal.h && commit "proc: a bool from pde_is_permanent" &&
	sed -i '84s/PROC_ENTRY_PERMANENT;/PROC_ENTRY_PERMANET;/' \
		fs/proc/internal.h && commit "proc: misspell the permanent flag" &&
	sed -i '18s/(u8 \*)(P)/(char *)(P)/' fs/ntfs3/debug.h &&
	commit "fs/ntfs3: char pointer arithmetic" &&
	git format-patch -q -o "$TMP/series" HEAD~5) ||
	skip_all "git cannot make the series"
is "$(cd "$R" && git diff --stat HEAD~5 | tail -1)" \
	" 4 files changed, 5 insertions(+), 5 deletions(-)" "the series changes one line per patch"

db=$TMP/k.db
"$TOOLS/mkdb" "$db"
touch "$TMP/stamp"
mkdir "$TMP/vt"
TMPDIR=$TMP/vt "$GFPAUDIT" validate --db "$db" --no-checkpatch "$TMP/series" \
	"$tree" >"$TMP/out" 2>"$TMP/err"
is "$?" 1 "the series with a compile error fails"
out=$(cat "$TMP/out")
row() { printf '%s\n' "$out" | grep -E "^$1 +$2 +$3 " | grep -v 'names:'; }

# (a) the error, in kbuild's own words, on the changed line
like "$(row 0001-proc-misspell-the-mask.patch fs/proc/generic.c compile)" \
	"fail +[0-9]+ new error\\(s\\) or warning\\(s\\) \\(kbuild: make fs/proc/generic.o\\): 456: error: 'GFP_KENREL' undeclared .*\\(a line this patch changed\\)" \
	"kbuild's compiler names the new error on the changed line"
like "$(cat "$TMP/err")" "FAIL 0001-proc-misspell-the-mask.patch: fs/proc/generic.c: compile: .*kbuild: make fs/proc/generic.o" \
	"the failure is on stderr, naming the kbuild command"

# (b) a clean change passes through kbuild, compile and sparse
like "$(row 0002-proc-quiet-the-opener-allocation.patch fs/proc/inode.c compile)" \
	"pass +no new errors or warnings \\(kbuild: make fs/proc/inode.o; 0 before, 0 after\\)" \
	"a clean change passes kbuild's compile"
if command -v sparse >/dev/null 2>&1; then
	like "$(row 0002-proc-quiet-the-opener-allocation.patch fs/proc/inode.c sparse)" \
		"pass +no new warnings \\(kbuild: make C=2 CHECK='sparse -fdiagnostic-prefix' fs/proc/inode.o; 1 before, 1 after\\)" \
		"...and kbuild's sparse on the same object"
else
	skip 1 "sparse is not installed"
fi

# (c) the header through fs/proc objects that include it, nearest first
hdr=$(row 0003-proc-a-bool-from-pde_is_permanent.patch fs/proc/internal.h compile)
like "$hdr" "pass +no new errors or warnings \\(kbuild: make fs/proc/[a-z_]+\\.o fs/proc/[a-z_]+\\.o fs/proc/[a-z_]+\\.o; " \
	"a clean header change passes, built through three fs/proc objects"
objs=$(printf '%s\n' "$hdr" | sed -n 's/.*kbuild: make \([^;]*\);.*/\1/p')
n=0
for o in $objs; do
	c=${o%.o}.c
	[ -f "$tree/$c" ] && grep -q '#include "internal.h"' "$tree/$c" &&
		n=$((n + 1))
done
is "$n" 3 "each object's source #includes the header"
if command -v sparse >/dev/null 2>&1; then
	like "$(row 0003-proc-a-bool-from-pde_is_permanent.patch fs/proc/internal.h sparse)" \
		"(pass|inconclusive) .*\\(kbuild: make C=2 CHECK='sparse -fdiagnostic-prefix' $objs[;)]" \
		"sparse checks the header through the same objects"
else
	skip 1 "sparse is not installed"
fi
like "$(row 0004-proc-misspell-the-permanent-flag.patch fs/proc/internal.h compile)" \
	"fail +[0-9]+ new error\\(s\\) or warning\\(s\\) \\(kbuild: make fs/proc/.*: 84: error: 'PROC_ENTRY_PERMANET' undeclared" \
	"an error in the header fails through its includers"

# (d) a header no object of the .config includes
users=$(grep -l '^#include "debug.h"' "$tree"/fs/ntfs3/*.c | wc -l)
like "$(row 0005-fs-ntfs3-char-pointer-arithmetic.patch fs/ntfs3/debug.h compile)" \
	"inconclusive +no object the .config builds #includes it \\($users .c files of the tree do\\)" \
	"a header no built object includes is inconclusive, saying why"

like "$out" "checks: apply 5 pass, 0 fail, 0 inconclusive; compile 3 pass, 3 fail, 1 inconclusive" \
	"the summary counts results per check"
is "$(sql "$db" "SELECT count(*) FROM validations WHERE check_name = 'compile' AND detail LIKE '%kbuild: make fs/%'")" \
	4 "the kbuild results are stored"
is "$(find "$tree" -newer "$TMP/stamp" | head -5)" "" "validate does not write the tree"
is "$(ls -A "$TMP/vt")" "" "the scratch copy and the kbuild farm are removed"
done_testing
