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
is "$(last_run)" "18 0" "first scan parses every file"
ok "second scan" "$GFPAUDIT" scan --db "$db" "$t"
is "$(last_run)" "0 18" "unchanged tree: nothing re-parsed"
is "$(counts)" "$first" "re-scan: no duplicate rows"

# Change one file: one GFP_TEMPORARY use becomes GFP_KERNEL.
sed -i 's/GFP_TEMPORARY/GFP_KERNEL/' "$t/fs/seq_file.c"
touch "$t/fs/namei.c" # a new mtime alone is no change
ok "third scan" "$GFPAUDIT" scan --db "$db" "$t"
is "$(last_run)" "1 17" "only the changed file is re-parsed"
is "$(sql "$db" "SELECT flags FROM sites WHERE path = 'fs/seq_file.c' AND api = 'kvmalloc'")" \
	GFP_KERNEL "its new content is recorded"
is "$(sql "$db" "SELECT count(*) FROM flag_uses WHERE path = 'fs/seq_file.c'")" 0 \
	"its old flag use is gone"
ok "forced scan" "$GFPAUDIT" scan --force --db "$db" "$t"
is "$(last_run)" "18 0" "--force re-parses everything"

# A file removed from the tree leaves the database with its rows.
rm "$t/fs/namei.c"
ok "scan after a removal" "$GFPAUDIT" scan --db "$db" "$t"
is "$(sql "$db" "SELECT count(*) FROM flag_uses WHERE path = 'fs/namei.c'")" 0 \
	"removed file's rows are gone"

# An interrupted scan: rows of a half-written batch never appear.  Emulate
# the state a kill leaves (a run still 'running', some files missing).
sql "$db" "DELETE FROM files WHERE path LIKE 'mm/%'; UPDATE runs SET status = 'running', finished_at = NULL WHERE id = (SELECT max(id) FROM runs)"
ok "scan after an interrupted one" "$GFPAUDIT" scan --db "$db" "$t"
is "$(last_run)" "2 15" "the next scan finishes the job (mm/ only)"
is "$(sql "$db" "SELECT count(*) FROM (SELECT path, line, col, api FROM sites GROUP BY 1, 2, 3, 4 HAVING count(*) > 1)")" \
	0 "no duplicate sites"
done_testing
