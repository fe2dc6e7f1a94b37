#!/bin/sh
# gfpaudit rules: listing, --check errors with file:line, --run findings.
. "$(dirname "$0")/lib.sh"

out=$("$GFPAUDIT" rules)
like "$out" "^name +versions +action +description" "rules prints a header"
for r in gfp-param gfp-temporary reclaimable-noop reclaimable-without-shrinker \
	shrinker-without-reclaimable sleep-in-atomic; do
	like "$out" "^$r " "rules lists $r"
done
like "$out" "gfp-temporary +>=2.6.24 +replace " "gfp-temporary: versions and action"
like "$out" "reclaimable-noop +>=2.6.24 +drop " "reclaimable-noop drops"
like "$out" "sleep-in-atomic +all +report " "sleep-in-atomic reports"
like "$out" "gfp-param +all +suggest-param " "gfp-param suggests the parameter"
like "$out" "shrinker-without-reclaimable +>=2.6.24 +add " \
	"shrinker-without-reclaimable adds the flag"
exit_is 0 "every shipped rule passes --check" "$GFPAUDIT" rules --check \
	"$SRC_DIR"/data/*.rule

# Malformed rule files: one line each, naming file:line and the problem.
bad() {
	_name=$1 _want=$2; shift 2
	printf '%s\n' "$@" >"$TMP/$_name.rule"
	"$GFPAUDIT" rules --check "$TMP/$_name.rule" >"$TMP/.o" 2>&1
	_rc=$?
	is "$_rc" 2 "$_name: --check exits 2"
	like "$(cat "$TMP/.o")" "$_want" "$_name: error names file, line, problem"
}
hdr='description: d
versions: all
flags: GFP_TEMPORARY
action: report'
bad nokey "nokey.rule:2: want 'key: value'" "name: nokey" "garbage here"
bad unknown "unknown.rule:2: unknown key 'frobnicate'" "name: unknown" \
	"frobnicate: 1"
bad badcol "badcol.rule:7: where: 'colour' is not a column of sites" \
	"name: badcol" "$hdr" "match: sites" "where: colour = red"
bad badop "badop.rule:7: where: unknown operator '~'" \
	"name: badop" "$hdr" "match: sites" "where: flags ~ x"
bad badver "badver.rule:3: versions: bad constraint '4.x'" \
	"name: badver" "description: d" "versions: 4.x"
bad badfield "badfield.rule:8: template field \\{nope\\} is not a column of caches" \
	"name: badfield" "$hdr" "match: caches" "where: reclaimable = 1" \
	"message: cache {nope}"
bad nomsg "nomsg.rule:6: match section has no 'message:'" \
	"name: nomsg" "$hdr" "match: caches" "where: reclaimable = 1"
bad noname "noname.rule:1: missing 'name:'" "description: x"
bad mismatch "mismatch.rule:1: name 'other' does not match the file name" \
	"name: other" "$hdr" "match: caches" "message: m"
bad noreplace "noreplace.rule:.*action replace needs at least one 'replace:'" \
	"name: noreplace" "description: d" "versions: all" \
	"flags: GFP_TEMPORARY" "action: replace" "subject: s"
bad addflow "addflow.rule:8: action add edits sites: match sites or caches" \
	"name: addflow" "description: d" "versions: all" "flags: X" \
	"action: add" "add: X" "subject: s" "match: flag_uses" "message: m"
bad parammatch "parammatch.rule:.*action suggest-param needs a 'match:' section" \
	"name: parammatch" "description: d" "versions: all" "flags: X" \
	"action: suggest-param" "subject: s"
printf 'name: nul\nx\000y: z\n' >"$TMP/nul.rule"
exit_is 2 "a NUL byte in a rule is refused" "$GFPAUDIT" rules --check "$TMP/nul.rule"
like "$("$GFPAUDIT" rules --check "$TMP/nul.rule" 2>&1)" "nul.rule:2: NUL byte" \
	"the NUL byte's line is named"
exit_is 2 "a missing rule file is an error" "$GFPAUDIT" rules --check "$TMP/none.rule"
exit_is 2 "--check without files is a usage error" "$GFPAUDIT" rules --check

# A rules directory with one broken file still lists the others, exits 2.
mkdir "$TMP/rd"
cp "$SRC_DIR/data/sleep-in-atomic.rule" "$TMP/rd/"
printf 'name: broken\n' >"$TMP/rd/broken.rule"
out=$("$GFPAUDIT" rules --rules "$TMP/rd" 2>"$TMP/err")
is "$?" 2 "a broken rule file makes the listing exit 2"
like "$out" "sleep-in-atomic" "the good rules are still listed"
like "$(cat "$TMP/err")" "broken.rule" "the broken file is named"

# --run: findings from sites and caches rows as the classifiers fill them.
db=$TMP/r.db
"$TOOLS/mkdb" "$db"
sqlite3 "$db" "
INSERT INTO runs(command, tree, kernel_version, started_at)
	VALUES ('scan', '/t', '4.13.0', '2026-01-01T00:00:00Z');
INSERT INTO files(path, hash, size, parse_mode) VALUES ('fs/a.c', 'h', 1, 'lexical');
INSERT INTO sites(file_id, path, line, col, function, api, flags, context,
	context_evidence, flag_effective, flag_effective_reason) VALUES
 (1, 'fs/a.c', 10, 8, 'f', 'kmalloc', 'GFP_KERNEL', 'atomic',
	'spin_lock(&x->lock) at line 9', 1, NULL),
 (1, 'fs/a.c', 20, 8, 'g', 'kmalloc', 'GFP_ATOMIC', 'atomic',
	'irq handler', 1, NULL),
 (1, 'fs/a.c', 30, 8, 'h', 'kmalloc', 'GFP_KERNEL | __GFP_RECLAIMABLE',
	'process', NULL, 0, 'kmalloc strips mobility bits before 4.20'),
 (1, 'fs/a.c', 40, 8, 'i', '__get_free_pages', 'GFP_TEMPORARY', 'process',
	NULL, 1, 'the page allocator honours them');
UPDATE sites SET flags_used = flags;
INSERT INTO caches(file_id, path, line, col, variable, name, flags,
	reclaimable, has_shrinker, shrinker_evidence) VALUES
 (1, 'fs/a.c', 50, 12, 'a_cachep', 'a_cache', 'SLAB_RECLAIM_ACCOUNT', 1, 0, NULL),
 (1, 'fs/a.c', 60, 12, 'b_cachep', 'b_cache', '0', 0, 1, 'b_shrinker'),
 (1, 'fs/a.c', 70, 12, 'c_cachep', 'c_cache', 'SLAB_RECLAIM_ACCOUNT', 1, 1,
	'super_operations.free_cached_objects');"
out=$("$GFPAUDIT" rules --run --db "$db" 2>"$TMP/err")
is "$?" 0 "rules --run exits 0"
like "$out" "^fs/a.c:10:8: error: kmalloc\\(GFP_KERNEL\\) may sleep in atomic context \\(spin_lock\\(&x->lock\\) at line 9\\) \\[sleep-in-atomic\\]" \
	"sleep-in-atomic: gcc-style line with the evidence"
like "$out" "fs/a.c:10:8: note: suggestion: GFP_ATOMIC" "a GFP_ATOMIC suggestion"
if printf '%s' "$out" | grep -q "fs/a.c:20:"; then r=1; else r=0; fi
is "$r" 0 "a GFP_ATOMIC site in atomic context is not reported"
like "$out" "fs/a.c:30:8: warning: GFP_KERNEL \\| __GFP_RECLAIMABLE passed to kmalloc\\(\\) has no effect here: kmalloc strips" \
	"reclaimable-noop reports the no-op flag with the reason"
if printf '%s' "$out" | grep -q "fs/a.c:40:.*reclaimable-noop"; then r=1; else r=0; fi
is "$r" 0 "reclaimable-noop keeps quiet where the flag works"
like "$out" 'fs/a.c:50:12: note: cache "a_cache" is SLAB_RECLAIM_ACCOUNT but no shrinker was found' \
	"reclaimable-without-shrinker: flag without shrinker"
like "$out" 'fs/a.c:60:12: note: cache "b_cache" looks shrunk by b_shrinker but lacks SLAB_RECLAIM_ACCOUNT \[shrinker-without-reclaimable\]' \
	"shrinker-without-reclaimable: shrinker without flag (the inverse)"
if printf '%s' "$out" | grep -q "fs/a.c:70:"; then r=1; else r=0; fi
is "$r" 0 "a reclaimable cache with a shrinker is fine"
is "$(sql "$db" "SELECT rule || ':' || line || ':' || severity FROM findings ORDER BY line")" \
"sleep-in-atomic:10:error
reclaimable-noop:30:warning
reclaimable-without-shrinker:50:note
shrinker-without-reclaimable:60:note" "findings rows are stored"
is "$(sql "$db" "SELECT count(*) FROM findings WHERE rule = 'sleep-in-atomic' AND site_id = 1 AND run_id = 1")" \
	1 "a finding links its site and run"
"$GFPAUDIT" rules --run --db "$db" sleep-in-atomic >/dev/null 2>&1
is "$(sql "$db" "SELECT count(*) FROM findings")" 4 "re-running a rule replaces its findings"
exit_is 2 "--run on a missing database" "$GFPAUDIT" rules --run --db "$TMP/none.db"
ok "which is not created" test ! -e "$TMP/none.db"
exit_is 2 "--run of an unknown rule" "$GFPAUDIT" rules --run --db "$db" nope
sqlite3 "$db" "UPDATE runs SET kernel_version = '2.6.20'"
out=$("$GFPAUDIT" rules --run --db "$db" 2>&1)
like "$out" "reclaimable-noop: skipped, kernel 2.6.20 is not >=2.6.24" \
	"rules outside their versions are skipped"
done_testing
