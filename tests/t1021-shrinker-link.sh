#!/bin/sh
# Caches shrunk from another file of their directory (issue 4): each file
# records its reclaimer and the caches it frees (file_facts), and the link
# step after scan, merge and check joins them.  Re-scans recompute it.
. "$(dirname "$0")/lib.sh"

tree=$TMP/tree
cp -R "$SRC_DIR/tests/fixtures/shrinker" "$tree"
db=$TMP/s.db

caches() {
	sql "$1" "SELECT path || ' ' || variable || ' ' || has_shrinker || ' ' ||
		ifnull(shrinker_scope, '-') FROM caches ORDER BY path"
}

ok "scan succeeds" "$GFPAUDIT" scan --no-progress --db "$db" "$tree"
is "$(caches "$db")" "fs/bar/bar.c foo_inode_cache 0 -
fs/baz/baz.c baz_cache 0 -
fs/ev/cache.c ev_extent_cache 1 reclaim path
fs/ev/cache.c ev_node_cache 0 -
fs/ev/cache.c ev_tx_cache 0 -
fs/foo/super.c foo_inode_cache 1 directory
fs/lw/item.c lw_cachep 1 reclaim path
fs/lw/item.c lw_tx_cachep 0 -
fs/pm/pm.c conf->cache 1 file
fs/qux/file.c qux_cachep 0 -
fs/rc/node.c rc_node_cachep 1 reclaim path
fs/v9/v9fs.c v9_inode_cache 1 directory" \
	"shrunk: a cache created in super.c whose objects icache.c's shrinker frees, an inode cache freed by a function a reclaim hook of another file names, extents freed two calls below .evict_inode, items freed by the isolate callback a shrinker hands to a list_lru walk, nodes freed by the callback a shrinker's call hands to call_rcu(), a cache whose shrinker frees through a helper handed the cache; not: the same variable name in another directory, a shrinker that frees another cache, an LRU in one file and the free in another, a cache freed from .release, a cache that does not say it is reclaimable, a cache freed by a function a shrinker hands to a call data/lifetime.txt does not list"
is "$(sql "$db" "SELECT shrinker_evidence FROM caches WHERE path = 'fs/foo/super.c'")" \
	"scan_objects at fs/foo/icache.c:6, kmem_cache_free(foo_inode_cache) at fs/foo/icache.c:14" \
	"the evidence names the shrinking file and its lines"
is "$(sql "$db" "SELECT shrinker_evidence FROM caches WHERE path = 'fs/v9/v9fs.c'")" \
	"v9_free_inode as a reclaim hook at fs/v9/vfs_super.c:14, kmem_cache_free(v9_inode_cache) at fs/v9/vfs_inode.c:10" \
	"the evidence names the hook and the free (a directory answer comes before a path)"
is "$(sql "$db" "SELECT shrinker_evidence FROM caches WHERE variable = 'ev_extent_cache'")" \
	"reclaim calls ev_evict_inode (fs/ev/inode.c) -> ev_cache_inval -> ev_extent_free, kmem_cache_free(ev_extent_cache) at fs/ev/cache.c:27" \
	"the evidence names the path from the evict member to the free"
is "$(sql "$db" "SELECT shrinker_evidence FROM caches WHERE variable = 'lw_cachep'")" \
	"reclaim calls lw_scan (fs/lw/shrink.c) -> list_lru_shrink_walk(lw_isolate), kmem_cache_free(lw_cachep) at fs/lw/item.c:22" \
	"the evidence names the walk the isolate callback was handed to"
is "$(sql "$db" "SELECT shrinker_evidence FROM caches WHERE variable = 'rc_node_cachep'")" \
	"reclaim calls rc_scan (fs/rc/shrink.c) -> rc_node_free -> call_rcu(rc_node_free_rcu), kmem_cache_free(rc_node_cachep) at fs/rc/node.c:27" \
	"and the call_rcu() the RCU callback was handed to"
is "$(sql "$db" "SELECT callbacks FROM functions WHERE name = 'lw_scan'")" \
	"list_lru_shrink_walk/lw_isolate" \
	"functions.callbacks: only the argument the walk calls"
is "$(sql "$db" "SELECT count(*) FROM file_facts f JOIN files p ON p.id = f.file_id
	WHERE p.path = 'fs/foo/icache.c' AND f.kind = 'cache_free'")" 1 \
	"a file that only frees a cache's objects is read for its facts"

out=$("$GFPAUDIT" rules --run --db "$db" reclaimable-without-shrinker 2>/dev/null)
like "$out" "fs/bar/bar.c:12" "rule: bar's cache is reported"
like "$out" "fs/baz/baz.c:9" "rule: baz's cache is reported"
like "$out" "fs/qux/file.c:13" "rule: qux's cache is reported"
case $out in *fs/foo/*) r=1 ;; *) r=0 ;; esac
is "$r" 0 "rule: foo's cache, shrunk from icache.c, is not reported"

# The free goes away: an incremental re-scan of icache.c alone unlinks it.
sed -i 's/kmem_cache_free(foo_inode_cache, foo_victim());/foo_victim();/' \
	"$tree/fs/foo/icache.c"
ok "re-scan after the edit" "$GFPAUDIT" scan --no-progress --db "$db" "$tree"
is "$(sql "$db" "SELECT has_shrinker || ifnull(shrinker_scope, '-') FROM caches
	WHERE path = 'fs/foo/super.c'")" "0-" "the link is recomputed: no free, no shrinker"
cp "$SRC_DIR/tests/fixtures/shrinker/fs/foo/icache.c" "$tree/fs/foo/icache.c"
ok "re-scan after the revert" "$GFPAUDIT" scan --no-progress --db "$db" "$tree"
is "$(sql "$db" "SELECT has_shrinker FROM caches WHERE path = 'fs/foo/super.c'")" 1 \
	"and back"

sed -i '/\.free_inode = /d' "$tree/fs/v9/vfs_super.c"
ok "re-scan without the hook" "$GFPAUDIT" scan --no-progress --db "$db" "$tree"
is "$(sql "$db" "SELECT has_shrinker FROM caches WHERE path = 'fs/v9/v9fs.c'")" 0 \
	"no hook, not shrunk"
cp "$SRC_DIR/tests/fixtures/shrinker/fs/v9/vfs_super.c" "$tree/fs/v9/"
ok "re-scan with the hook" "$GFPAUDIT" scan --no-progress --db "$db" "$tree"

# Shards: the cache and its free in different shards, linked by merge.
for k in 1 2 3 4 5; do
	"$GFPAUDIT" scan --no-progress --db "$TMP/s$k.db" --shard $k/5 "$tree" \
		2>/dev/null
done
ok "merge of 5 shards" "$GFPAUDIT" merge "$TMP/m.db" "$TMP/s1.db" "$TMP/s2.db" \
	"$TMP/s3.db" "$TMP/s4.db" "$TMP/s5.db"
is "$(caches "$TMP/m.db")" "$(caches "$db")" "merged shards link like one scan"
is "$(sql "$TMP/m.db" "SELECT shrinker_evidence FROM caches WHERE has_shrinker = 1 ORDER BY 1")" \
	"$(sql "$db" "SELECT shrinker_evidence FROM caches WHERE has_shrinker = 1 ORDER BY 1")" \
	"with the same evidence"
n=0
for k in 1 2 3 4 5; do
	v=$(sql "$TMP/s$k.db" "SELECT count(*) FROM caches WHERE has_shrinker = 1
		AND shrinker_scope IS NOT 'file'")
	n=$((n + v))
done
is "$n" 0 "no shard alone sees a cache shrunk from another file (the test splits them)"

# check mode (as kbuild runs it, from the tree root) appends one file and
# links the database.
cdb=$TMP/c.db
(cd "$tree" && "$GFPAUDIT" check --db "$cdb" fs/foo/super.c) 2>/dev/null
is "$?" 0 "check super.c"
is "$(sql "$cdb" "SELECT has_shrinker FROM caches")" 0 "check: alone, not shrunk"
(cd "$tree" && "$GFPAUDIT" check --db "$cdb" fs/foo/icache.c) 2>/dev/null
is "$?" 0 "check icache.c"
is "$(sql "$cdb" "SELECT has_shrinker || ' ' || shrinker_scope FROM caches")" \
	"1 directory" "check: the second file links the first's cache"

done_testing
