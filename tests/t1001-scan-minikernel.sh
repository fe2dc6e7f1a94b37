#!/bin/sh
# gfpaudit scan on examples/minikernel: every shape the analyzer must find,
# compared row by row with the hand-checked examples/minikernel/EXPECTED-*.
. "$(dirname "$0")/lib.sh"

db=$TMP/mk.db
ok "scan of the minikernel succeeds" "$GFPAUDIT" scan -j 2 --db "$db" "$MINIKERNEL"

SITES="SELECT path, line, col, ifnull(function, ''), api, api_origin,
	ifnull(flags, ''), ifnull(flags_line, ''), ifnull(flags_col, ''),
	ifnull(flags_via, ''), ifnull(flags_resolved, ''),
	CASE WHEN gfp_mask IS NULL THEN '' ELSE printf('0x%x', gfp_mask) END,
	ifnull(migratetype, ''), ifnull(size, ''), ifnull(size_const, ''),
	ifnull(macro, ''), in_disabled_branch
	FROM sites ORDER BY path, line, col"
USES="SELECT path, line, col, flag, context, ifnull(function, ''),
	ifnull(macro, ''), ifnull(call, ''), in_disabled_branch
	FROM flag_uses ORDER BY path, line, col"

sql "$db" "$SITES" >"$TMP/sites.tsv"
ok "sites match EXPECTED-sites.tsv" \
	diff -u "$MINIKERNEL/EXPECTED-sites.tsv" "$TMP/sites.tsv"
sql "$db" "$USES" >"$TMP/uses.tsv"
ok "flag_uses match EXPECTED-flag_uses.tsv" \
	diff -u "$MINIKERNEL/EXPECTED-flag_uses.tsv" "$TMP/uses.tsv"

# The shapes, spelled out (a regression in one names itself here).
is "$(sql "$db" "SELECT function FROM sites WHERE path = 'mm/shmem.c'")" \
	memfd_create "SYSCALL_DEFINE2 body: the syscall's name"
is "$(sql "$db" "SELECT flags_line, flags_col FROM sites WHERE path = 'fs/seq_file.c' AND api = 'kvmalloc'")" \
	"8	4" "multi-line call: flags on the next line"
is "$(sql "$db" "SELECT flags_via || ' ' || flags_resolved || ' ' || migratetype FROM sites WHERE function = 'environ_buf'")" \
	"flags (GFP_TEMPORARY) | __GFP_ZERO reclaimable" \
	"flags through a local variable, widened with |="
is "$(sql "$db" "SELECT in_disabled_branch FROM sites WHERE path = 'drivers/misc/tmpbuf.c' AND api LIKE 'alloc_pages%' ORDER BY line")" \
	"1
0" "#ifdef CONFIG_NUMA inactive, #else active (unconfigured tree)"
is "$(sql "$db" "SELECT in_disabled_branch FROM sites WHERE function = 'getname_old'")" \
	1 "#if 0 block is found and marked disabled"
is "$(sql "$db" "SELECT macro FROM sites WHERE path = 'drivers/misc/tmpbuf.c' AND line = 6")" \
	tmpbuf_alloc "call inside a #define body"
is "$(sql "$db" "SELECT api_origin || ' ' || flags FROM sites WHERE function = 'tmpbuf_get'")" \
	"learned GFP_TEMPORARY" "use of an allocator macro is a site"
is "$(sql "$db" "SELECT via FROM allocators WHERE name = 'tmpbuf_alloc' AND origin = 'learned'")" \
	kmalloc "allocator macro learned into allocators"
is "$(sql "$db" "SELECT count(*) FROM sites WHERE path LIKE 'arch/powerpc/%'")" \
	2 "non-host arch files are scanned"
is "$(sql "$db" "SELECT migratetype FROM sites WHERE api = 'kmem_cache_create' AND path = 'fs/dcache.c'")" \
	reclaimable "SLAB_RECLAIM_ACCOUNT cache is reclaimable"
is "$(sql "$db" "SELECT context FROM flag_uses WHERE path = 'include/trace/events/mmflags.h' AND flag = 'GFP_TEMPORARY' ORDER BY col")" \
	"flag_table
string_table" "mmflags.h flag-name table"
is "$(sql "$db" "SELECT context FROM flag_uses WHERE path = 'tools/perf/builtin-kmem.c' AND flag = 'GFP_TEMPORARY'")" \
	string_table "perf string table"
is "$(sql "$db" "SELECT printf('0x%x', gfp_mask) FROM sites WHERE path = 'mm/page_isolation.c'")" \
	0x24000d0 "set_migrateflags() evaluated"
is "$(sql "$db" "SELECT count(*) FROM sites WHERE api = 'kmalloc' AND path = 'include/linux/slab.h'")" \
	1 "a prototype/definition is not a site, a call in an inline is"
is "$(sql "$db" "SELECT status, files_total, kernel_version FROM runs")" \
	"complete	18	4.13.0" "runs row complete with the tree's version"
is "$(sql "$db" "SELECT json_extract(options, '\$.jobs') FROM runs")" 2 \
	"runs.options is JSON"
is "$(sql "$db" "SELECT count(*) FROM files WHERE hash NOT GLOB '[0-9a-f]*' OR length(hash) != 16")" \
	0 "file hashes are 16 hex digits"
done_testing
