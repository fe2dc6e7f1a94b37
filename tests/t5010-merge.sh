#!/bin/sh
# gfpaudit merge with hand-made shard databases: the merged database
# holds every row once, ids remapped; a different tree is refused.  The
# row checks merge with --no-rules (the shards' findings are hand-made);
# the last ones check that a merge re-evaluates the rules.
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib/report-fixture.sh"

full=$TMP/full.db
report_fixture "$full" || { echo "Bail out! fixture"; exit 1; }
# Shard K keeps the files whose id is K-1 mod 3 and their rows; the
# patch/validation/simulation rows are in every shard (must merge once).
for k in 1 2 3; do
	cp "$full" "$TMP/s$k.db"
	sqlite3 -bail "$TMP/s$k.db" "PRAGMA foreign_keys = ON;
		UPDATE runs SET shard = '$k/3',
			started_at = '2026-12-03T08:0$k:00Z';
		DELETE FROM findings WHERE path IN
			(SELECT path FROM files WHERE id % 3 <> $k - 1);
		DELETE FROM files WHERE id % 3 <> $k - 1;
		PRAGMA foreign_keys = OFF;
		-- New ids, so that the merge has to remap them.
		UPDATE files SET id = id + 100 * $k;
		UPDATE flag_uses SET file_id = file_id + 100 * $k;
		UPDATE sites SET file_id = file_id + 100 * $k;
		UPDATE sites SET id = id + 100 * $k;
		UPDATE findings SET site_id = site_id + 100 * $k;" || exit 1
done
is "$(sql "$TMP/s3.db" "SELECT group_concat(path) FROM flag_uses")" "fs/proc/proc_sysctl.c" "shard 3 has its own rows only"

dump() {
	sql "$1" "SELECT path, line, col, flag, context, function, macro,
		call, in_disabled_branch FROM flag_uses ORDER BY 1, 2, 3, 4;
	SELECT f.path, s.path, s.line, s.col, s.api, s.flags, s.lifetime,
		s.context FROM sites s JOIN files f ON f.id = s.file_id
		ORDER BY 2, 3, 4;
	SELECT path, hash, parse_mode FROM files ORDER BY 1;
	SELECT x.rule, x.path, x.line, s.api FROM findings x
		LEFT JOIN sites s ON s.id = x.site_id ORDER BY 1, 2, 3;
	SELECT series, number, subject FROM patches ORDER BY 1, 2;
	SELECT series, patch, check_name, result FROM validations ORDER BY 1, 2, 3;
	SELECT experiment, policy, variant, metric, value FROM sim_results ORDER BY 1, 2, 3, 4;
	SELECT variant, step, free_order9 FROM sim_curves ORDER BY 1, 2;"
}
dump "$full" >"$TMP/want"

out=$TMP/all.db
ok "merge three shards" "$GFPAUDIT" merge --no-rules "$out" "$TMP/s3.db" "$TMP/s1.db" "$TMP/s2.db"
dump "$out" >"$TMP/got"
ok "merged rows equal the unsharded database" diff "$TMP/want" "$TMP/got"
is "$(sql "$out" 'SELECT count(*) FROM flag_uses f JOIN files x ON x.id = f.file_id AND x.path = f.path')" \
	"$(sql "$full" 'SELECT count(*) FROM flag_uses')" "every flag use points at its file"
is "$(sql "$out" "SELECT count(*) FROM runs WHERE shard IS NOT NULL")" 3 "one run per shard"
is "$(sql "$out" "SELECT json_extract(options, '\$.inputs[1]') FROM runs WHERE command = 'merge'")" \
	"$TMP/s1.db" "the merge is a run naming its inputs"
is "$(sql "$out" "SELECT count(*) FROM files WHERE run_id NOT IN (SELECT id FROM runs)")" 0 \
	"file run ids are remapped"

ok "merging the same shard again" "$GFPAUDIT" merge --no-rules "$out" "$TMP/s1.db" "$TMP/s1.db"
dump "$out" >"$TMP/got2"
ok "adds no duplicate row" diff "$TMP/want" "$TMP/got2"
is "$(sql "$out" "SELECT count(*) FROM runs WHERE shard IS NOT NULL")" 3 "nor a duplicate run"

# A file two shards both hold: the better-parsed copy wins, whatever the
# order, and findings follow its sites.
cp "$TMP/s2.db" "$TMP/weak.db"
sqlite3 "$TMP/weak.db" "UPDATE runs SET shard = '3/3';
	UPDATE files SET parse_mode = 'lexical';
	UPDATE sites SET function = 'lexfn', confidence = 'lexical'"
for order in "weak s2" "s2 weak"; do
	rm -f "$TMP/best.db"
	set -- $order
	"$GFPAUDIT" merge "$TMP/best.db" "$TMP/$1.db" "$TMP/$2.db"
	is "$(sql "$TMP/best.db" "SELECT parse_mode FROM files WHERE path = 'fs/proc/base.c'")" \
		kbuild "merge $order: the kbuild copy of a file wins over the lexical one"
	is "$(sql "$TMP/best.db" "SELECT group_concat(function) FROM (SELECT function FROM sites WHERE path = 'fs/proc/base.c' ORDER BY line)")" \
		"f,g" "merge $order: with its rows only"
	is "$(sql "$TMP/best.db" "SELECT group_concat(s.api) FROM (SELECT site_id FROM findings WHERE path = 'fs/proc/base.c' ORDER BY line) x JOIN sites s ON s.id = x.site_id")" \
		"kmalloc,__get_free_page" "merge $order: findings point at the kept sites"
done

# Identity: another tree, another version, another shard count.
cp "$TMP/s2.db" "$TMP/other.db"
sqlite3 "$TMP/other.db" "UPDATE runs SET tree = '/elsewhere'"
exit_is 2 "a shard of another tree is refused" \
	"$GFPAUDIT" merge --no-rules "$TMP/new.db" "$TMP/s1.db" "$TMP/other.db"
msg=$("$GFPAUDIT" merge --no-rules "$TMP/new.db" "$TMP/s1.db" "$TMP/other.db" 2>&1)
is "$(printf '%s\n' "$msg" | wc -l)" 1 "with a one-line error"
like "$msg" "other.db: tree /elsewhere differs from $TMP/tree in .*s1.db" \
	"naming the input and the difference"
ok "and no output database is left" test ! -e "$TMP/new.db"
cp "$TMP/s2.db" "$TMP/v.db"
sqlite3 "$TMP/v.db" "UPDATE runs SET kernel_version = '6.2.0'"
exit_is 2 "another kernel version is refused" "$GFPAUDIT" merge --no-rules "$TMP/new.db" "$TMP/s1.db" "$TMP/v.db"
cp "$TMP/s2.db" "$TMP/n.db"
sqlite3 "$TMP/n.db" "UPDATE runs SET shard = '2/4'"
exit_is 2 "another shard count is refused" "$GFPAUDIT" merge --no-rules "$TMP/new.db" "$TMP/s1.db" "$TMP/n.db"
exit_is 2 "the existing output's tree counts too" "$GFPAUDIT" merge --no-rules "$out" "$TMP/other.db"
cp "$TMP/s1.db" "$TMP/h.db"
sqlite3 "$TMP/h.db" "UPDATE files SET hash = 'ffffffffffffffff'"
exit_is 2 "the same file with other content is refused" \
	"$GFPAUDIT" merge --no-rules "$TMP/new.db" "$TMP/s1.db" "$TMP/h.db"
msg=$("$GFPAUDIT" merge --no-rules "$TMP/new.db" "$TMP/s1.db" "$TMP/h.db" 2>&1)
like "$msg" "h.db: mm/slab.c differs from the same file" "naming the file"
ok "and the new output is removed" test ! -e "$TMP/new.db"
dump "$out" >"$TMP/got3"
ok "refused merges left the output untouched" diff "$TMP/want" "$TMP/got3"

exit_is 2 "an input that is the output" "$GFPAUDIT" merge --no-rules "$out" "$out"
exit_is 2 "a missing input" "$GFPAUDIT" merge --no-rules "$TMP/new.db" "$TMP/none.db"
ok "is not created" test ! -e "$TMP/none.db"
printf 'junk' >"$TMP/junk.db"
exit_is 2 "a non-database input" "$GFPAUDIT" merge --no-rules "$TMP/new.db" "$TMP/junk.db"
"$TOOLS/mkdb" "$TMP/empty.db"
exit_is 2 "an input without runs" "$GFPAUDIT" merge --no-rules "$TMP/new.db" "$TMP/empty.db"
exit_is 2 "no input at all" "$GFPAUDIT" merge --no-rules "$TMP/new.db"

# Without --no-rules the merge leaves the findings the rules give now.
ok "merge and evaluate the rules" "$GFPAUDIT" merge "$TMP/ev.db" \
	"$TMP/s1.db" "$TMP/s2.db" "$TMP/s3.db"
cp "$TMP/ev.db" "$TMP/ev2.db"
"$GFPAUDIT" rules --run --db "$TMP/ev2.db" >/dev/null 2>&1
findings() { sql "$1" "SELECT rule, path, line, message FROM findings ORDER BY 1, 2, 3"; }
is "$(findings "$TMP/ev.db")" "$(findings "$TMP/ev2.db")" \
	"the merged findings are what rules --run gives"
exit_is 2 "an unknown --run-rules name is refused" \
	"$GFPAUDIT" merge --run-rules gfp-nonesuch "$TMP/ev3.db" "$TMP/s1.db"
like "$(cat "$TMP/.out")" "no rule 'gfp-nonesuch'" "naming it"
ok "before anything is written" test ! -e "$TMP/ev3.db"
done_testing
