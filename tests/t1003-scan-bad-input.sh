#!/bin/sh
# Bad input: one-line errors, exit 2, and the rest of the tree scanned.
. "$(dirname "$0")/lib.sh"

db=$TMP/bad.db
lines() { wc -l <"$TMP/.out" | tr -d ' '; }

exit_is 2 "missing tree" "$GFPAUDIT" scan --db "$db" "$TMP/nope"
is "$(lines)" 1 "missing tree: one line"
like "$(cat "$TMP/.out")" "nope" "missing tree: names it"
: >"$TMP/file"
exit_is 2 "not a directory" "$GFPAUDIT" scan --db "$db" "$TMP/file"
like "$(cat "$TMP/.out")" "not a directory" "not a directory: says so"
mkdir -p "$TMP/notkernel"
echo "all:" >"$TMP/notkernel/Makefile"
exit_is 2 "no Makefile with VERSION" "$GFPAUDIT" scan --db "$db" "$TMP/notkernel"
like "$(cat "$TMP/.out")" "not a kernel tree" "not a kernel: says so"
is "$(lines)" 1 "not a kernel: one line"
exit_is 2 "bad -j" "$GFPAUDIT" scan -j zero --db "$db" "$MINIKERNEL"
exit_is 2 "bad --shard" "$GFPAUDIT" scan --shard 4/3 --db "$db" "$MINIKERNEL"
exit_is 2 "bad --depth" "$GFPAUDIT" scan --depth deep --db "$db" "$MINIKERNEL"
ok "no database was written by refused scans" test ! -e "$db"

# A tree with every kind of bad file next to good ones.
t=$TMP/tree
cp -r "$MINIKERNEL" "$t"
printf 'int x = GFP_TEMPORARY;\0\0\0binary\n' >"$t/fs/blob.c"
printf '/* caf\351 */ int y = GFP_TEMPORARY;\nvoid *f(void) { /* na\357ve */ return kmalloc(8, GFP_TEMPORARY); }\n' \
	>"$t/fs/latin1.c"
printf '}}} int ((( = GFP_TEMPORARY @@@ kmalloc(1, GFP_TEMPORARY\n{{{\n' \
	>"$t/fs/garbage.c"
ln -s loop-b.c "$t/fs/loop-a.c"
ln -s loop-a.c "$t/fs/loop-b.c"
ln -s .. "$t/fs/up"		# a directory loop: never followed
mkfifo "$t/fs/fifo.c"
if [ "$(id -u)" != 0 ]; then
	echo 'int z = GFP_TEMPORARY;' >"$t/fs/secret.c"
	chmod 000 "$t/fs/secret.c"
fi
exit_is 0 "scan with bad files succeeds" "$GFPAUDIT" scan --db "$db" "$t"
out=$(cat "$TMP/.out")
like "$out" "fs/blob.c: binary file" "binary file: warned"
is "$(printf '%s\n' "$out" | grep -c 'fs/latin1.c')" 0 \
	"a Latin-1 file is source: no warning"
like "$out" "fs/loop-a.c: symlink loop" "symlink loop: warned"
is "$(sql "$db" "SELECT parse_mode || ' ' || (error IS NOT NULL) FROM files WHERE path = 'fs/blob.c'")" \
	"failed 1" "binary file recorded as failed with its error"
# Source is bytes (#21): a Latin-1 comment costs the file nothing.
is "$(sql "$db" "SELECT parse_mode != 'failed' FROM files WHERE path = 'fs/latin1.c'")" \
	1 "a Latin-1 file is analysed"
is "$(sql "$db" "SELECT count(*) FROM flag_uses WHERE path = 'fs/latin1.c' AND context != 'comment'")" \
	2 "a Latin-1 file: its flag uses found"
is "$(sql "$db" "SELECT line || ':' || col || ' ' || api FROM sites WHERE path = 'fs/latin1.c'")" \
	"2:36 kmalloc" "a Latin-1 file: its site found, at its byte column"
"$GFPAUDIT" report --format sarif --db "$db" -o "$TMP/latin1.sarif" >/dev/null 2>&1
ok "a Latin-1 file: the SARIF report is valid JSON" python3 -c \
	"import json, sys; json.load(open(sys.argv[1], encoding='utf-8'))" \
	"$TMP/latin1.sarif"
is "$(sql "$db" "SELECT count(*) FROM flag_uses WHERE path = 'fs/garbage.c'")" 2 \
	"unparseable file: tokens still found"
is "$(sql "$db" "SELECT count(*) FROM sites WHERE path = 'fs/garbage.c'")" 1 \
	"unparseable file: the call still found"
is "$(sql "$db" "SELECT diagnostics > 0 FROM files WHERE path = 'fs/garbage.c'")" 1 \
	"unparseable file: diagnostics counted"
is "$(sql "$db" "SELECT count(*) FROM files WHERE path LIKE 'fs/up/%' OR path = 'fs/fifo.c'")" 0 \
	"directory symlinks and FIFOs are not followed"
is "$(sql "$db" "SELECT count(*) FROM sites WHERE path = 'mm/shmem.c'")" 1 \
	"the rest of the tree is scanned"
is "$(sql "$db" "SELECT files_failed FROM runs ORDER BY id DESC LIMIT 1")" \
	"$( [ "$(id -u)" = 0 ] && echo 1 || echo 2)" "failed files counted"
if [ "$(id -u)" != 0 ]; then
	like "$out" "fs/secret.c: cannot read" "unreadable file: warned"
	chmod 600 "$t/fs/secret.c"
fi

# Broken data files: the file and line are named.
mkdir -p "$TMP/rules"
cp "$SRC_DIR/data/tracked-flags.txt" "$TMP/rules/"
printf 'kmalloc alloc slab 1 0\nkzalloc alloc slab one 0\n' >"$TMP/rules/allocators.txt"
exit_is 2 "a malformed allocators.txt is refused" env GFPAUDIT_RULES_DIR="$TMP/rules" \
	"$GFPAUDIT" scan --db "$TMP/r.db" "$MINIKERNEL"
like "$(cat "$TMP/.out")" "allocators.txt:2: expected NAME KIND" "names file and line"
printf 'GFP_TEMPORARY\nnot a name\n' >"$TMP/rules/tracked-flags.txt"
exit_is 2 "a malformed tracked-flags.txt is refused" env GFPAUDIT_RULES_DIR="$TMP/rules" \
	"$GFPAUDIT" scan --db "$TMP/r.db" "$MINIKERNEL"
like "$(cat "$TMP/.out")" "tracked-flags.txt:2:" "names file and line"

# Not a terminal: only the summary lines (the scan's, the rules'); --progress
# forces the bar.
"$GFPAUDIT" scan --db "$TMP/p.db" "$MINIKERNEL" 2>"$TMP/err" >/dev/null
is "$(wc -l <"$TMP/err" | tr -d ' ')" 2 "no progress bar when stderr is no tty"
like "$(tail -n 1 "$TMP/err")" "gfpaudit scan: rules: " "the rules' summary comes last"
like "$(cat "$TMP/err")" "^gfpaudit scan: .*20 files" "a one-line summary"
"$GFPAUDIT" scan --force --progress --db "$TMP/p.db" "$MINIKERNEL" 2>"$TMP/err" >/dev/null
like "$(cat "$TMP/err")" "20/20 files .*files/s .*ETA" "--progress draws files done/total, rate, ETA"

echo "not sqlite" >"$TMP/junk.db"
exit_is 2 "a database that is not ours" "$GFPAUDIT" scan --db "$TMP/junk.db" "$MINIKERNEL"
done_testing
