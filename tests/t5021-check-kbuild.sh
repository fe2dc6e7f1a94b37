#!/bin/sh
# gfpaudit check as CHECK= in a real kbuild: Debian's 6.1 tree, defconfig,
# `make -j2 C=2 CHECK=... fs/proc/`, then the database's fs/proc rows
# compared with a direct `gfpaudit scan --depth full` of the same files.
. "$(dirname "$0")/lib.sh"

for p in make gcc flex bison bc; do
	command -v $p >/dev/null 2>&1 || skip_all "$p is not installed"
done
# A private copy: make C=2 compiles, so it writes the tree.
tree=$(linux61_copy linux-6.1-check sh -c \
	'make defconfig >/dev/null && make prepare >/dev/null') ||
	skip_all "no 6.1 tree, or make defconfig prepare failed in it"

db=$TMP/kbuild.db
(cd "$tree" && nice make -j2 C=2 CHECK="$GFPAUDIT check --db $db" fs/proc/) \
	>"$TMP/make.log" 2>&1
rc=$?
[ $rc = 0 ] || tail -20 "$TMP/make.log" | sed 's/^/# /'
is "$rc" 0 "make -j2 C=2 CHECK='gfpaudit check' fs/proc/ succeeds"
grep '^  CHECK   fs/proc/' "$TMP/make.log" | sed 's/^  CHECK   //' |
	sort >"$TMP/checked"
n=$(wc -l <"$TMP/checked")
ok "kbuild ran the checker on the fs/proc files ($n)" test "$n" -gt 20
sql "$db" "SELECT path FROM files WHERE path LIKE 'fs/proc/%' ORDER BY 1" \
	>"$TMP/recorded"
ok "every checked file is in the database" diff "$TMP/checked" "$TMP/recorded"
is "$(grep -ci 'database is locked' "$TMP/make.log")" 0 "no 'database is locked'"
is "$(sql "$db" "SELECT count(*) FROM runs WHERE command = 'check' AND status <> 'complete'")" 0 \
	"every check run completed"
is "$(sql "$db" "SELECT count(*) FROM files WHERE path LIKE 'fs/proc/%' AND parse_mode <> 'kbuild'")" 0 \
	"every file was parsed with kbuild's flags"
is "$(sql "$db" "SELECT count(*) FROM files WHERE path LIKE 'fs/proc/%' AND diagnostics > 0")" 0 \
	"libclang accepted kbuild's flags (no error diagnostics)"
nf=$(sql "$db" "SELECT count(*) FROM flag_uses WHERE path LIKE 'fs/proc/%'")
ns=$(sql "$db" "SELECT count(*) FROM sites WHERE path LIKE 'fs/proc/%'")
ok "check found allocation sites in fs/proc ($ns sites, $nf flag uses)" test "$ns" -gt 20
ok "gcc-style findings are printed as sparse's are" sh -c \
	"! grep -E '^fs/proc/[^:]+:[0-9]+:[0-9]+: ' '$TMP/make.log' |
		grep -vqE ': (error|warning|note): .* \[[a-z0-9-]+\]$'"

# The same files scanned directly: a copy of the configured tree's
# headers and fs/proc (read from our copy; nothing is written to it).
k=$TMP/k
mkdir -p "$k/arch/x86" "$k/fs"
cp -a "$tree/Makefile" "$tree/.config" "$tree/include" "$k/"
cp -a "$tree/arch/x86/include" "$k/arch/x86/"
cp -a "$tree/fs/proc" "$k/fs/"
"$GFPAUDIT" scan --no-progress --depth full --db "$TMP/scan.db" "$k" \
	>"$TMP/scan.log" 2>&1
is "$?" 0 "direct scan --depth full of the same files"
rows() {
	sqlite3 -batch -noheader "$1" "ATTACH '$db' AS c;
	SELECT path, line, col, flag, context, function, macro, call,
		in_disabled_branch FROM main.flag_uses
		WHERE path IN (SELECT path FROM c.files) ORDER BY 1, 2, 3, 4;
	SELECT path, line, col, api, api_origin, flags, function, macro,
		in_disabled_branch FROM main.sites
		WHERE path IN (SELECT path FROM c.files) AND api NOT IN
			(SELECT name FROM main.allocators WHERE origin = 'learned'
			 AND ifnull(family, '') != 'macro')
		ORDER BY 1, 2, 3, 4"
}
rows "$db" >"$TMP/check.rows"
rows "$TMP/scan.db" >"$TMP/scan.rows"
# A checker knows the wrapper functions of the files checked before it
# (docs/kbuild.md); the scan, all of them: compare the other sites.
ok "check and scan found the same flag uses and sites in fs/proc" \
	diff "$TMP/scan.rows" "$TMP/check.rows"
diff "$TMP/scan.rows" "$TMP/check.rows" | head -10 | sed 's/^/# /'
done_testing
