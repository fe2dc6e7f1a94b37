#!/bin/sh
# --depth full on a configured 6.1 tree (make defconfig prepare): the
# translation units get kbuild's include paths and -include files, parse
# without errors, and every site keeps what the fast tier found.
. "$(dirname "$0")/lib.sh"

[ -f "$LINUX61_TAR" ] || [ -d "$GFPAUDIT_CACHE/linux-source-6.1" ] ||
	skip_all "linux-source-6.1 is not installed"
tree=$(linux61_copy linux-6.1-configured sh -c \
	'make -s defconfig >/dev/null && make -s prepare >/dev/null') ||
	skip_all "cannot configure the 6.1 copy"
[ -f "$tree/include/generated/autoconf.h" ] || skip_all "tree not configured"

parts="fs/proc mm/memfd.c"
ok "full-depth scan of $parts" nice "$GFPAUDIT" scan --depth full -j 2 \
	--db "$TMP/full.db" "$tree" $parts
ok "single-depth scan of the same files" nice "$GFPAUDIT" scan -j 2 \
	--db "$TMP/single.db" "$tree" $parts
is "$(sql "$TMP/full.db" "SELECT DISTINCT parse_mode FROM files WHERE path LIKE '%.c' AND parse_mode != 'lexical'")" \
	kbuild "configured tree: kbuild-derived flags"
# nommu.c is only built for !CONFIG_MMU; everything else is clean.
is "$(sql "$TMP/full.db" "SELECT count(*) FROM files WHERE diagnostics > 0 AND path != 'fs/proc/nommu.c'")" \
	0 "the x86_64 defconfig files parse without errors"
is "$(sql "$TMP/full.db" "SELECT function FROM sites WHERE path = 'mm/memfd.c' AND api = 'kmalloc'")" \
	__do_sys_memfd_create "SYSCALL_DEFINE2 body: the function clang sees"
q="SELECT path, line, col, api, flags FROM sites ORDER BY 1, 2, 3"
is "$(sql "$TMP/full.db" "$q")" "$(sql "$TMP/single.db" "$q")" \
	"full and single tiers find the same sites"
n=$(sql "$TMP/full.db" "SELECT count(*) FROM sites")
f=$(sql "$TMP/full.db" "SELECT count(*) FROM sites WHERE confidence = 'full_ast'")
ok "most sites have the full AST ($f of $n)" test "$((f * 10))" -ge "$((n * 9))"
is "$(sql "$TMP/full.db" "SELECT count(*) FROM sites WHERE confidence = 'full_ast' AND in_disabled_branch = 1")" \
	0 "no AST for sites in inactive #if branches"
done_testing
