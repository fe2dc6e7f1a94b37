#!/bin/sh
# Incremental re-scans: unchanged files are not re-parsed, a changed file
# is, and no row is ever duplicated.
. "$(dirname "$0")/lib.sh"

t=$TMP/tree
db=$TMP/inc.db
cp -r "$MINIKERNEL" "$t"
counts() {
	sql "$db" "SELECT (SELECT count(*) FROM files) || ' ' ||
		(SELECT count(*) FROM flag_uses) || ' ' ||
		(SELECT count(*) FROM sites)"
}
last_run() {
	sql "$db" "SELECT files_parsed || ' ' || files_unchanged FROM runs ORDER BY id DESC LIMIT 1"
}
ok "first scan" "$GFPAUDIT" scan --db "$db" "$t"
first=$(counts)
is "$(last_run)" "20 0" "first scan parses every file"
ok "second scan" "$GFPAUDIT" scan --db "$db" "$t"
is "$(last_run)" "0 20" "unchanged tree: nothing re-parsed"
is "$(counts)" "$first" "re-scan: no duplicate rows"
# rows another build (or other tables) answered are all analysed again
stamp=$(sql "$db" "SELECT value FROM meta WHERE key = 'analyzer_stamp'")
like "$stamp" '^[0-9][^ ]* [0-9a-f]{16}$' "a whole scan stamps its analyzer"
sql "$db" "UPDATE meta SET value = 'another build' WHERE key = 'analyzer_stamp'"
"$GFPAUDIT" scan --no-progress --db "$db" "$t" 2>"$TMP/stamp.err"
is "$(last_run)" "20 0" "another analyzer's database: every file again"
like "$(cat "$TMP/stamp.err")" "scanned by another build" "and the scan says why"
is "$(sql "$db" "SELECT value FROM meta WHERE key = 'analyzer_stamp'")" \
	"$stamp" "the stamp is this analyzer's again"
is "$(counts)" "$first" "no duplicate rows"
ok "next scan" "$GFPAUDIT" scan --db "$db" "$t"
is "$(last_run)" "0 20" "then nothing re-parsed"

# Change one file: one GFP_TEMPORARY use becomes GFP_KERNEL.
sed -i 's/GFP_TEMPORARY/GFP_KERNEL/' "$t/fs/seq_file.c"
touch "$t/fs/namei.c" # a new mtime alone is no change
ok "third scan" "$GFPAUDIT" scan --db "$db" "$t"
is "$(last_run)" "1 19" "only the changed file is re-parsed"
is "$(sql "$db" "SELECT flags FROM sites WHERE path = 'fs/seq_file.c' AND api = 'kvmalloc'")" \
	GFP_KERNEL "its new content is recorded"
is "$(sql "$db" "SELECT count(*) FROM flag_uses WHERE path = 'fs/seq_file.c'")" 0 \
	"its old flag use is gone"
ok "forced scan" "$GFPAUDIT" scan --force --db "$db" "$t"
is "$(last_run)" "20 0" "--force re-parses everything"

# Stamps: a file whose size and mtime are the recorded ones is not read
# (like git's index); a fresh mtime is never trusted (it may be followed
# by a change within the same tick), a touched file gets its new stamp.
find "$t" -type f -exec touch -d '2020-01-01 00:00:00' {} +
ok "scan after touching every file into the past" "$GFPAUDIT" scan --db "$db" "$t"
is "$(last_run)" "0 20" "touched, not changed: nothing re-parsed"
is "$(sql "$db" "SELECT count(*) FROM files WHERE mtime_ns IS NOT NULL")" 20 \
	"every file's settled stamp is recorded"
sed -i 's/GFP_KERNEL/GFP_NOFS__/' "$t/fs/seq_file.c" # same size
touch -d '2020-01-01 00:00:00' "$t/fs/seq_file.c"
ok "scan after a change that keeps size and mtime" "$GFPAUDIT" scan --db "$db" "$t"
is "$(last_run)" "0 20" "the stamp is trusted: the file is not read"
ok "a forced scan reads it" "$GFPAUDIT" scan --force --db "$db" "$t"
is "$(sql "$db" "SELECT flags FROM sites WHERE path = 'fs/seq_file.c' AND api = 'kvmalloc'")" \
	GFP_NOFS__ "--force: the new content is recorded"
sed -i 's/GFP_NOFS__/GFP_KERNEL/' "$t/fs/seq_file.c"
ok "scan after a change with a fresh mtime" "$GFPAUDIT" scan --db "$db" "$t"
is "$(last_run)" "1 19" "a new mtime: the file is read and re-parsed"
is "$(sql "$db" "SELECT mtime_ns IS NULL FROM files WHERE path = 'fs/seq_file.c'")" 1 \
	"a fresh mtime is not recorded"
touch -d '2021-01-01 00:00:00' "$t/fs/namei.c"
ok "scan after a touch" "$GFPAUDIT" scan --db "$db" "$t"
is "$(sql "$db" "SELECT mtime_ns / 1000000000 FROM files WHERE path = 'fs/namei.c'")" \
	"$(date -d '2021-01-01 00:00:00' +%s)" "the touched file's new stamp is recorded"

# A file removed from the tree leaves the database with its rows.
rm "$t/fs/namei.c"
ok "scan after a removal" "$GFPAUDIT" scan --db "$db" "$t"
is "$(sql "$db" "SELECT count(*) FROM flag_uses WHERE path = 'fs/namei.c'")" 0 \
	"removed file's rows are gone"

# An interrupted scan: rows of a half-written batch never appear.  Emulate
# the state a kill leaves (a run still 'running', some files missing).
sql "$db" "DELETE FROM files WHERE path LIKE 'mm/%'; UPDATE runs SET status = 'running', finished_at = NULL WHERE id = (SELECT max(id) FROM runs)"
ok "scan after an interrupted one" "$GFPAUDIT" scan --db "$db" "$t"
is "$(last_run)" "2 17" "the next scan finishes the job (mm/ only)"
is "$(sql "$db" "SELECT count(*) FROM (SELECT path, line, col, api FROM sites GROUP BY 1, 2, 3, 4 HAVING count(*) > 1)")" \
	0 "no duplicate sites"
# A re-scan says how far the whole-tree summaries moved: kept when no
# file changed, else how many functions were solved again, how many of
# them came from the re-analysed files and how many others changed their
# answer (user() may sleep once helper() does, in another file).
s=$TMP/sum
mkdir -p "$s/lib"
printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\n' >"$s/Makefile"
printf 'void helper(void)\n{\n}\n' >"$s/lib/a.c"
printf 'void helper(void);\nvoid user(void)\n{\n\thelper();\n}\nvoid other(void)\n{\n}\n' >"$s/lib/b.c"
"$GFPAUDIT" scan --no-progress --db "$TMP/sum.db" "$s" 2>"$TMP/sum1.err"
is "$(grep -c 'summaries' "$TMP/sum1.err")" 0 "a first scan prints no summaries line"
"$GFPAUDIT" scan --no-progress --db "$TMP/sum.db" "$s" 2>"$TMP/sum2.err"
like "$(cat "$TMP/sum2.err")" "summaries kept: nothing they are solved from changed" \
	"nothing changed: the summaries are kept"
printf 'struct mutex m;\nvoid helper(void)\n{\n\tmutex_lock(&m);\n}\n' >"$s/lib/a.c"
"$GFPAUDIT" scan --no-progress --db "$TMP/sum.db" "$s" 2>"$TMP/sum3.err"
like "$(cat "$TMP/sum3.err")" \
	"summaries solved again for 3 functions: 1 of the re-analysed files, 1 more whose answer changed" \
	"a change that reaches a caller in another file is reported"
is "$(sql "$TMP/sum.db" "SELECT may_sleep || ' ' || sleep_via FROM functions WHERE name = 'user'")" \
	"1 helper" "the caller now may sleep, through helper()"
is "$(sql "$TMP/sum.db" "SELECT value FROM meta WHERE key = 'summaries_last'")" "3 1 1" \
	"meta summaries_last has the same figures"
# A re-analysed file whose rows give the link steps what they gave before
# (a flag changed, no call, no line) keeps its answers without a solve,
# and they are the answers a fresh scan gives (analyzer/linkmemo.h).
m=$TMP/memo
mkdir -p "$m/lib"
printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\n' >"$m/Makefile"
printf 'struct mutex m;\nvoid helper(void)\n{\n\tmutex_lock(&m);\n}\n' >"$m/lib/a.c"
printf 'void helper(void);\nint user(void)\n{\n\tchar *p = kmalloc(16, GFP_KERNEL);\n\n\tif (!p)\n\t\treturn -1;\n\thelper();\n\tkfree(p);\n\treturn 0;\n}\n' >"$m/lib/b.c"
answers() { # DB: every answer the link steps write, without row ids
	sql "$1" "SELECT path, line, col, flags, held_across_sleep,
		sleep_evidence, context, context_evidence, context_base,
		lifetime, lifetime_evidence, lifetime_line FROM sites
		ORDER BY path, line, col;
		SELECT fl.path, f.name, f.line, may_sleep, sleep_via,
		atomic_context, atomic_via, param_use FROM functions f
		JOIN files fl ON fl.id = f.file_id ORDER BY 1, 2, 3;
		SELECT path, line, has_shrinker, shrinker_evidence,
		shrinker_scope FROM caches ORDER BY 1, 2"
}
fresh() { # the answers of a scan of the tree into a new database
	rm -f "$TMP/fresh.db"
	"$GFPAUDIT" scan --no-progress --db "$TMP/fresh.db" "$m" 2>/dev/null
	answers "$TMP/fresh.db"
}
"$GFPAUDIT" scan --no-progress --db "$TMP/memo.db" "$m" 2>/dev/null
sed -i 's/GFP_KERNEL/GFP_NOIO/' "$m/lib/b.c"
"$GFPAUDIT" scan --no-progress --db "$TMP/memo.db" "$m" 2>"$TMP/memo1.err"
like "$(cat "$TMP/memo1.err")" "summaries kept: nothing they are solved from changed" \
	"a flag changed, no call: the summaries are kept"
is "$(sql "$TMP/memo.db" "SELECT flags || ' ' || held_across_sleep || ' ' || sleep_evidence FROM sites")" \
	"GFP_NOIO 1 helper() at line 8: helper() -> mutex_lock() at line 4 (lib/a.c)" \
	"the re-analysed site has its new flags and its answer back"
is "$(answers "$TMP/memo.db")" "$(fresh)" "the kept answers are a fresh scan's"
is "$(sql "$TMP/memo.db" "SELECT count(*) FROM files WHERE linked = 0")" 0 \
	"every file is linked"
# the same calls one line down: the evidence names lines, so it is solved
printf '\n' | cat - "$m/lib/b.c" >"$m/b.new" && mv "$m/b.new" "$m/lib/b.c"
"$GFPAUDIT" scan --no-progress --db "$TMP/memo.db" "$m" 2>"$TMP/memo2.err"
like "$(cat "$TMP/memo2.err")" "summaries solved again" "lines moved: solved again"
is "$(sql "$TMP/memo.db" "SELECT sleep_evidence FROM sites")" \
	"helper() at line 9: helper() -> mutex_lock() at line 4 (lib/a.c)" \
	"the evidence has the new line"
is "$(answers "$TMP/memo.db")" "$(fresh)" "and the answers are a fresh scan's"
# the callee stops sleeping, in the other file: the caller's site follows
printf 'void helper(void)\n{\n}\n' >"$m/lib/a.c"
"$GFPAUDIT" scan --no-progress --db "$TMP/memo.db" "$m" 2>"$TMP/memo3.err"
like "$(cat "$TMP/memo3.err")" "summaries solved again" "a callee changed: solved again"
is "$(sql "$TMP/memo.db" "SELECT held_across_sleep FROM sites")" 0 \
	"the site in the unchanged file is no longer held across a sleep"
is "$(answers "$TMP/memo.db")" "$(fresh)" "and the answers are a fresh scan's"
# --force trusts no kept answer (a new binary may answer differently)
"$GFPAUDIT" scan --force --no-progress --db "$TMP/memo.db" "$m" 2>"$TMP/memo4.err"
like "$(cat "$TMP/memo4.err")" "summaries solved again" "--force solves again"
done_testing
