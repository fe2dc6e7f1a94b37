#!/bin/sh
# Issue #7's guarantees with hostile names: a tree whose directory and
# file names hold shell syntax (';', '$()', backquotes, spaces) is scanned,
# patched (git, get_maintainer.pl) and validated (git, clang, sparse,
# checkpatch) without any of it being run, each name reaching its tool as
# one argument; a subsystem prefix from the tree's history that looks
# like a path ("../../x:") does not put a patch file outside --out.
. "$(dirname "$0")/lib.sh"

command -v perl >/dev/null || skip_all "perl is not installed"
W=$TMP/work
mkdir "$W"
# Run from W: a shell running "touch pwned-N" would create W/pwned-N.
cd "$W" || exit 1
evil='mk; touch pwned-1 $(touch pwned-2) `touch pwned-3` & x'
MK=$W/$evil
cp -a "$MINIKERNEL" "$MK"
fname='fs/proc/a;touch pwned-4;$(touch pwned-5)'"'"'--"x.c'
cat >"$MK/$fname" <<'C'
#include <linux/slab.h>

static void *evil_name_alloc(void)
{
	return kmalloc(16, GFP_TEMPORARY);
}
C
# A name that is SQL if spliced into a statement ('... OR '1'='1' ...).
sqlname="fs/proc/q'OR'1'='1';--.c"
cat >"$MK/$sqlname" <<'C'
#include <linux/slab.h>

static void *sql_name_alloc(void)
{
	return kmalloc(32, GFP_TEMPORARY);
}
C
cat >"$MK/MAINTAINERS" <<'M'
PROC FILESYSTEM
M:	Pat Proc <pat@example.org>
F:	fs/proc/

THE REST
L:	linux-kernel@example.org
F:	*
F:	*/
M
# A get_maintainer.pl that records its argv, one argument a line.
mkdir -p "$MK/scripts"
cat >"$MK/scripts/get_maintainer.pl" <<'PL'
open(my $log, '>>', "$ENV{GM_LOG}") or die;
print $log "script=$0\n";
print $log "$_\n" for @ARGV;
print $log "--end--\n";
print "Pat Proc <pat\@example.org> (maintainer:PROC FILESYSTEM)\n";
PL
git_id="-c user.name=T -c user.email=t@example.org"
(cd "$MK" && git init -q && git add -A && git $git_id commit -qm "Initial" &&
	echo '/* a */' >>"$fname" && git $git_id commit -qam "../../escape: notes" &&
	echo '/* b */' >>"$fname" && git $git_id commit -qam "../../escape: more") ||
	skip_all "git cannot commit here"

db=$W/h.db
ok "scan a tree whose path holds shell syntax" "$GFPAUDIT" scan --db "$db" "$MK"
is "$(sql "$db" "SELECT count(*) FROM flag_uses WHERE path = '$(printf '%s' "$fname" | sed "s/'/''/g")'")" \
	1 "the file with shell syntax in its name is scanned under its name"
OUT=$W/out
GM_LOG=$W/gm.log
export GM_LOG
ok "patch, To:/Cc: from the tree's get_maintainer.pl" "$GFPAUDIT" patch \
	--db "$db" --rule gfp-temporary --maintainers script --out "$OUT" "$MK"
p=$(grep -l 'evil_name_alloc' "$OUT"/*.patch)
like "$p" "^$OUT/0[0-9]*-[^/]*\\.patch\$" "the patch with the hostile file is in --out"
like "$(cat "$p")" "^To: Pat Proc <pat@example.org>" "get_maintainer.pl's answer is used"
like "$(cat "$GM_LOG")" "^$OUT/0[0-9]*-[^/]*\\.patch\$" \
	"get_maintainer.pl got each patch file as one argument"
like "$(grep -c -- '--end--' "$GM_LOG")" "^[1-9]" "get_maintainer.pl ran"
is "$(grep '^script=' "$GM_LOG" | sort -u)" "script=$MK/scripts/get_maintainer.pl" \
	"perl got the script's path, shell syntax and all, as one argument"
like "$(cat "$p")" "a;touch pwned-4;\\\$\\(touch pwned-5\\)'--\\\\?\"x\\.c" \
	"the diff names the file as it is"
n=$(find "$W" -name '*.patch' ! -path "$OUT/*" | wc -l)
is "$n" 0 "no patch file is written outside --out ('../../escape:' prefix)"
n=$(find "$OUT" -mindepth 1 -type d | wc -l)
is "$n" 0 "nor in a directory below it"
like "$(ls "$OUT")" "escape" "the prefix is still in the file name, flattened"

ok "validate the series" sh -c '"$1" validate --db "$2" "$3" "$4" >"$5" 2>&1' \
	sh "$GFPAUDIT" "$db" "$OUT" "$MK" "$W/validate.out"
like "$(cat "$W/validate.out")" "a;touch pwned-4;\\\$\\(touch pwned-5\\)'--\\\\?\"x\\.c +compile +pass" \
	"the hostile file is compiled under its own name"

# A rule's values are compared in C, never spliced into SQL: a value
# holding SQL (a file's own name, quotes and comment included) matches
# exactly that row and changes nothing.
mkdir "$W/rd"
sed 's/^name: .*/name: hostile/' "$SRC_DIR/data/sleep-in-atomic.rule" |
	sed '/^match:/,$d' >"$W/rd/hostile.rule"
cat >>"$W/rd/hostile.rule" <<R
match: flag_uses
where: path = $sqlname
message: {path}
R
sites=$(sql "$db" "SELECT count(*) FROM sites")
out=$("$GFPAUDIT" rules --run --rules "$W/rd" --db "$db" hostile 2>&1)
is "$?" 0 "a rule whose value holds SQL syntax runs"
is "$(printf '%s\n' "$out" | grep -c '\[hostile\]')" 1 "and matches the one row of that path"
like "$out" "q'OR'1'='1';--\\.c:5" "the row of that file"
is "$(sql "$db" "SELECT count(*) FROM sites")" "$sites" "the database is intact"

# Whatever ran, nothing was run through a shell.
n=$(find "$TMP" -name 'pwned-*' | wc -l)
is "$n" 0 "no shell ran any part of a name"
done_testing
