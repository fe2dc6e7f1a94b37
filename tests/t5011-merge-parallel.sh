#!/bin/sh
# Scale-out: three `scan --shard K/3` runs through GNU parallel, merged,
# equal one plain scan (every column of files, flag_uses, sites, caches,
# file_facts,
# allocators, sleepers but the ids), on the minikernel and on a slice of
# the real 6.1 tree.
. "$(dirname "$0")/lib.sh"

command -v parallel >/dev/null 2>&1 || skip_all "GNU parallel is not installed"
"$GFPAUDIT" scan --help 2>&1 | grep -q -- '--shard' ||
	skip_all "gfpaudit scan has no --shard yet"

# All columns of TABLE except ids, sorted: a dump two databases can share.
dump_table() {
	cols=$(sql "$1" "SELECT group_concat(quote(name), ', ') FROM
		pragma_table_info('$2') WHERE name NOT IN ('id', 'file_id', 'run_id')" |
		tr "'" '"')
	sql "$1" "SELECT $cols FROM \"$2\" ORDER BY $cols"
}
dump() {
	for t in files flag_uses sites caches file_facts allocators sleepers; do
		echo "== $t"
		dump_table "$1" $t
	done
}

# shards NAME TREE: scan TREE whole and as 3 shards in parallel, merge.
shards() {
	name=$1 tree=$2
	"$GFPAUDIT" scan --no-progress --db "$TMP/$name-one.db" "$tree" \
		>/dev/null 2>&1
	ok "$name: single scan" test -s "$TMP/$name-one.db"
	parallel --will-cite --halt now,fail=1 "$GFPAUDIT" scan --no-progress \
		--db "$TMP/$name-s{}.db" --shard {}/3 "$tree" ::: 1 2 3 \
		>"$TMP/par.log" 2>&1
	is "$?" 0 "$name: 3 shards through parallel"
	for k in 1 2 3; do sql "$TMP/$name-s$k.db" 'SELECT path FROM files'; done |
		sort -u >"$TMP/$name-union"
	sql "$TMP/$name-one.db" 'SELECT path FROM files ORDER BY 1' >"$TMP/$name-paths"
	ok "$name: the shards together cover exactly the scanned files" \
		diff "$TMP/$name-paths" "$TMP/$name-union"
	# A shard's learned-wrapper pass may parse files of other shards
	# too; merge keeps the best-parsed copy of each.
	over=$(for k in 1 2 3; do sql "$TMP/$name-s$k.db" 'SELECT path FROM files'; done |
		sort | uniq -d | wc -l)
	echo "# $name: $over files recorded by more than one shard"
	ok "$name: merge" "$GFPAUDIT" merge "$TMP/$name-all.db" \
		"$TMP/$name-s1.db" "$TMP/$name-s2.db" "$TMP/$name-s3.db"
	dump "$TMP/$name-one.db" >"$TMP/$name-one.txt"
	dump "$TMP/$name-all.db" >"$TMP/$name-all.txt"
	nf=$(sql "$TMP/$name-one.db" "SELECT count(*) FROM flag_uses")
	ns=$(sql "$TMP/$name-one.db" "SELECT count(*) FROM sites")
	ok "$name: the scan found something ($nf flag uses, $ns sites)" \
		test "$nf" -gt 0 -a "$ns" -gt 0
	ok "$name: merged database equals the single scan" \
		diff "$TMP/$name-one.txt" "$TMP/$name-all.txt"
	[ -n "${VERBOSE_DIFF:-}" ] && diff "$TMP/$name-one.txt" "$TMP/$name-all.txt" | head -20
	ok "$name: merge in the other order" "$GFPAUDIT" merge "$TMP/$name-rev.db" \
		"$TMP/$name-s3.db" "$TMP/$name-s2.db" "$TMP/$name-s1.db"
	dump "$TMP/$name-rev.db" >"$TMP/$name-rev.txt"
	ok "$name: gives the same database" diff "$TMP/$name-one.txt" "$TMP/$name-rev.txt"
	is "$(sql "$TMP/$name-all.db" "SELECT group_concat(shard, ' ') FROM
		(SELECT shard FROM runs WHERE shard IS NOT NULL ORDER BY shard)")" \
		"1/3 2/3 3/3" "$name: one run per shard"
}

shards mini "$MINIKERNEL"

# A slice of the real tree: the headers and a few directories (copied,
# the pristine tree is never written).
if src=$(linux61_pristine 2>/dev/null); then
	mkdir -p "$TMP/k"
	(cd "$src" && cp -r Makefile MAINTAINERS include mm fs/proc "$TMP/k/" 2>/dev/null)
	mkdir -p "$TMP/k/fs" && mv "$TMP/k/proc" "$TMP/k/fs/proc"
	mkdir -p "$TMP/k/arch/x86" && cp -r "$src/arch/x86/include" "$TMP/k/arch/x86/"
	# Settled mtimes, so that every scan records the same stamps
	# (files.mtime_ns of a file fresher than 2 s is left NULL).
	find "$TMP/k" -type f -exec touch -d '2020-01-01 00:00:00' {} +
	shards linux61-slice "$TMP/k"
fi
done_testing
