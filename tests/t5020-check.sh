#!/bin/sh
# gfpaudit check as kbuild's CHECK: sparse's and gcc's flags accepted, the
# file analyzed into the database, gcc-style findings on stderr, exit 0;
# many checkers at once lose no row.
. "$(dirname "$0")/lib.sh"

SPARSE_FLAGS="-D__linux__ -Dlinux -D__STDC__ -Dunix -D__unix__ -Wbitwise
-Wno-return-void -Wno-unknown-attribute -D__x86_64__ --arch=x86
-mlittle-endian -m64"
GCC_FLAGS="-nostdinc -I./include -D__KERNEL__ -Wall -Werror
-fconserve-stack -mindirect-branch=thunk-extern -std=gnu11 -O2"

mk=$TMP/mk
cp -r "$MINIKERNEL" "$mk"
db=$TMP/c.db

ok "check --help" "$GFPAUDIT" check --help
exit_is 2 "no source file" "$GFPAUDIT" check --db "$db" -Wbitwise -m64
exit_is 2 "--db without a value" "$GFPAUDIT" check --db
exit_is 2 "a missing source file" "$GFPAUDIT" check --db "$db" --tree "$mk" "$mk/nope.c"
echo 'int x;' >"$TMP/outside.c"
exit_is 2 "a file outside the tree" "$GFPAUDIT" check --db "$db" --tree "$mk" "$TMP/outside.c"
msg=$("$GFPAUDIT" check --db "$db" --tree "$mk" "$TMP/outside.c" 2>&1)
like "$msg" "outside.c: not inside the tree" "the error names the file"

# As kbuild runs it: from the tree root, sparse's flags, then gcc's.
# shellcheck disable=SC2086
(cd "$mk" && "$GFPAUDIT" check --db "$db" $SPARSE_FLAGS \
	-Wp,-MMD,fs/.seq_file.o.d $GCC_FLAGS fs/seq_file.c) 2>"$TMP/err"
is "$?" 0 "check exits 0 (sparse's convention)"
ok "no dependency file is written into the tree (-Wp,-MMD dropped)" \
	test ! -e "$mk/fs/.seq_file.o.d"
is "$(sql "$db" "SELECT command || ' ' || status || ' ' || arch FROM runs")" \
	"check complete x86" "the check is a complete run"
is "$(sql "$db" "SELECT tree FROM runs")" "$(cd "$mk" && pwd -P)" \
	"the tree is the directory kbuild runs in"
is "$(sql "$db" "SELECT path FROM files")" "fs/seq_file.c" "the file is recorded"
is "$(sql "$db" "SELECT count(*) FROM flag_uses WHERE flag = 'GFP_TEMPORARY'")" 1 \
	"its GFP_TEMPORARY use"
is "$(sql "$db" "SELECT api || ' ' || line FROM sites ORDER BY line")" \
	"kvmalloc 7
kmalloc 13" "its allocation sites"
n=$(grep -cvE '^fs/seq_file\.c:[0-9]+:[0-9]+: (error|warning|note): .* \[[a-z0-9-]+\]$' "$TMP/err")
is "$n" 0 "stderr holds only gcc-style diagnostics for the file"
is "$(grep -c . "$TMP/err")" "$(sql "$db" "SELECT count(*) FROM findings WHERE path = 'fs/seq_file.c'")" \
	"one line per finding of the file"
# The rules run for the file: data/gfp-temporary.rule on its use.
like "$(cat "$TMP/err")" "^fs/seq_file.c:8:4: note: GFP_TEMPORARY .* \[gfp-temporary\]" \
	"the gfp-temporary rule's finding is printed as sparse prints a warning"
# ...and reclaimable-noop: kvmalloc's kmalloc path ignores the flag on 4.13.
is "$(sql "$db" "SELECT rule || ' ' || line || ' ' || run_id FROM findings ORDER BY rule")" \
	"gfp-temporary 8 1
reclaimable-noop 7 1" "and stored with the check's run"
(cd "$mk" && "$GFPAUDIT" check --db "$db" -I./include fs/seq_file.c) 2>/dev/null
is "$(sql "$db" "SELECT count(*) FROM findings")" 2 "a re-check replaces, not duplicates"

# The same rows as a direct scan of the tree.
rows() {
	sql "$1" "SELECT path, line, col, flag, context, function, macro, call,
		in_disabled_branch FROM flag_uses WHERE path = 'fs/seq_file.c'
		ORDER BY 1, 2, 3, 4;
	SELECT path, line, col, api, flags, function FROM sites
		WHERE path = 'fs/seq_file.c' ORDER BY 1, 2, 3"
}
"$GFPAUDIT" scan --no-progress --db "$TMP/scan.db" "$mk" >/dev/null 2>&1
rows "$db" >"$TMP/check.rows"
rows "$TMP/scan.db" >"$TMP/scan.rows"
ok "check and scan agree on the file's flag uses and sites" \
	diff "$TMP/scan.rows" "$TMP/check.rows"

# make -j: many checkers writing one fresh database at once.
mkdir -p "$mk/drivers"
i=1
while [ $i -le 16 ]; do
	printf '#include <linux/slab.h>\nvoid *f%d(void)\n{\n\treturn kmalloc(%d, GFP_TEMPORARY);\n}\n' \
		$i $i >"$mk/drivers/c$i.c"
	i=$((i + 1))
done
cdb=$TMP/conc.db
(
	cd "$mk" || exit 1
	pids=
	for f in drivers/c*.c; do
		# shellcheck disable=SC2086
		"$GFPAUDIT" check --db "$cdb" $SPARSE_FLAGS $GCC_FLAGS "$f" \
			2>"$TMP/err.${f#drivers/}" &
		pids="$pids $!"
	done
	fails=0
	for j in $pids; do wait "$j" || fails=$((fails + 1)); done
	echo "$fails" >"$TMP/fails"
)
is "$(cat "$TMP/fails")" 0 "16 concurrent checkers all exit 0"
is "$(cat "$TMP"/err.c*.c | grep -ci 'locked\|busy')" 0 "no 'database is locked'"
is "$(sql "$cdb" "SELECT count(*) FROM files")" 16 "no file lost"
is "$(sql "$cdb" "SELECT count(*) FROM sites")" 16 "no site lost"
is "$(sql "$cdb" "SELECT count(*) FROM flag_uses")" 16 "no flag use lost"
is "$(sql "$cdb" "SELECT count(DISTINCT path) FROM findings WHERE rule = 'gfp-temporary'")" 16 \
	"no checker's rule finding lost"
is "$(sql "$cdb" "SELECT count(*) FROM runs WHERE command = 'check' AND status = 'complete'")" 16 \
	"every checker's run is complete"
is "$(sql "$cdb" "PRAGMA integrity_check")" "ok" "the database is sound"
done_testing
