#!/bin/sh
# The real tree: Debian's linux-source-6.1 with GFP_TEMPORARY re-introduced
# by tests/lib/inject-temporary.py at a deterministic sample of call sites
# (all arches and #ifdef branches).  Every injected token must be in
# flag_uses, and every one passed to an allocator of data/allocators.txt
# must be a site of that API.
. "$(dirname "$0")/lib.sh"

[ -f "$LINUX61_TAR" ] || [ -d "$GFPAUDIT_CACHE/linux-source-6.1" ] ||
	skip_all "linux-source-6.1 is not installed"
manifest=$GFPAUDIT_CACHE/linux-6.1-temporary.manifest
tree=$(linux61_copy linux-6.1-temporary python3 \
	"$SRC_DIR/tests/lib/inject-temporary.py" . "$manifest") ||
	skip_all "cannot prepare the 6.1 copy"
[ -s "$manifest" ] || skip_all "no manifest at $manifest"

db=$TMP/linux61.db
ok "scan of the injected 6.1 tree" nice "$GFPAUDIT" scan -j 2 --db "$db" "$tree"
sed 's/^/# /' "$TMP/.out" | tail -1

sqlite3 -batch "$db" <<EOF2 >"$TMP/recall.txt"
CREATE TEMP TABLE m(path, line INTEGER, col INTEGER, callee, in_define);
.mode tabs
.import $manifest m
.mode list
SELECT 'manifest', count(*) FROM m;
SELECT 'in_uses', count(*) FROM m JOIN flag_uses f ON f.path = m.path
	AND f.line = m.line AND f.col = m.col AND f.flag = 'GFP_TEMPORARY';
-- Calls written in comments are no allocation sites.
CREATE TEMP TABLE want AS SELECT m.* FROM m JOIN flag_uses f
	ON f.path = m.path AND f.line = m.line AND f.col = m.col
	WHERE f.context != 'comment' AND m.callee IN
	(SELECT name FROM allocators WHERE kind != 'free');
SELECT 'want_sites', count(*) FROM want;
SELECT 'in_sites', count(*) FROM want WHERE EXISTS (SELECT 1 FROM sites s
	WHERE s.path = want.path AND s.api = want.callee
	AND s.flags_line <= want.line AND s.line <= want.line
	AND s.flags LIKE '%GFP_TEMPORARY%');
SELECT 'missing_use', path, line, col FROM m WHERE NOT EXISTS (SELECT 1
	FROM flag_uses f WHERE f.path = m.path AND f.line = m.line
	AND f.col = m.col AND f.flag = 'GFP_TEMPORARY') LIMIT 5;
SELECT 'missing_site', path, line, col, callee FROM want WHERE NOT EXISTS
	(SELECT 1 FROM sites s WHERE s.path = want.path
	AND s.api = want.callee AND s.flags LIKE '%GFP_TEMPORARY%') LIMIT 5;
SELECT 'mask', printf('0x%x', gfp_mask), migratetype FROM sites
	WHERE flags = 'GFP_TEMPORARY' GROUP BY 2, 3;
EOF2
sed 's/^/# /' "$TMP/recall.txt" | head -30
val() { awk -F'|' -v k="$1" '$1 == k { print $2 }' "$TMP/recall.txt"; }
n=$(val manifest)
ok "the manifest has a few hundred rows ($n)" test "${n:-0}" -gt 100
is "$(val in_uses)" "$n" "every injected GFP_TEMPORARY is in flag_uses"
is "$(val in_sites)" "$(val want_sites)" \
	"every injected allocator argument is a site with its api"
is "$(grep '^mask' "$TMP/recall.txt")" "mask|0xcd0|reclaimable" \
	"GFP_TEMPORARY evaluated with 6.1's gfp_types.h"
is "$(sql "$db" "SELECT kernel_version FROM runs")" "6.1.$(sed -n 's/^SUBLEVEL = //p' "$tree/Makefile")" \
	"kernel version from the tree's Makefile"
ok "arch/arc files are in files" test "$(sql "$db" "SELECT count(*) FROM files WHERE path LIKE 'arch/arc/%'")" -gt 0
# mm/memfd.c's memfd_create (a SYSCALL_DEFINE2 body) allocates its name.
is "$(sql "$db" "SELECT function FROM sites WHERE path = 'mm/memfd.c' AND api = 'kmalloc' AND function = 'memfd_create'")" \
	memfd_create "SYSCALL_DEFINE2(memfd_create) body site"
ok "incremental re-scan" nice "$GFPAUDIT" scan -j 2 --db "$db" "$tree"
is "$(sql "$db" "SELECT files_parsed FROM runs ORDER BY id DESC LIMIT 1")" 0 \
	"an unchanged tree re-parses nothing"
done_testing
