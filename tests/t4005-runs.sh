#!/bin/sh
# simulate --runs N: every policy and variant runs on seeds SEED..SEED+N-1
# (paired by seed); the table gives mean, sd and 95 % interval of each
# metric and paired delta with a verdict; sim_runs keeps every run, and
# the summaries recompute from it.
. "$(dirname "$0")/lib.sh"

small="--pages 4096 --steps 20000"
# Student's t, two-sided 95 %, 2 degrees of freedom (3 runs)
t2=4.302653

# --- the experiment: deltas against the first policy ---
db=$TMP/af.db
"$GFPAUDIT" simulate --experiment antifrag --runs 3 --seed 5 --tsv $small \
	--db "$db" >"$TMP/af.tsv" 2>"$TMP/af.err"
is "$?" "0" "--experiment --runs 3"
is "$(head -1 "$TMP/af.tsv")" "policy	metric	runs	mean	sd	ci95	delta	delta_sd	delta_ci95_low	delta_ci95_high	delta_pct	verdict" \
	"experiment table: summary, paired delta, verdict"
like "$(cat "$TMP/af.err")" "3 runs per policy \(paired by seed\), seeds 5\.\.7; intervals 95%, Student's t with 2 degrees of freedom" \
	"the runs, seeds and interval are said"
like "$(cat "$TMP/af.err")" "deltas are each policy's minus nogroup's on the same seed" \
	"the baseline is said"
is "$(awk -F'\t' 'NR > 1 && $1 == "nogroup" { print $12 }' "$TMP/af.tsv" | sort -u)" \
	"baseline" "the first policy is the baseline"
is "$(awk -F'\t' 'NR > 1 && $1 != "nogroup" { print $12 }' "$TMP/af.tsv" | sort -u | tr '\n' /)" \
	"not significant/significant/" "the others get a verdict, both kinds here"
is "$(awk -F'\t' 'NR > 1 { print $3 }' "$TMP/af.tsv" | sort -u)" "3" "runs column"
# the verdict is the interval's: significant exactly when it excludes 0
bad=$(awk -F'\t' 'NR > 1 && $1 != "nogroup" {
	sig = ($9 + 0 > 0 || $10 + 0 < 0) ? "significant" : "not significant"
	if (sig != $12) print $1, $2 }' "$TMP/af.tsv")
is "$bad" "" "verdict = whether the delta's interval excludes 0"

is "$(sql "$db" "SELECT group_concat(rs, ' ') FROM (SELECT DISTINCT run || ':' || seed AS rs FROM sim_runs ORDER BY run)")" \
	"1:5 2:6 3:7" "sim_runs: runs 1..3 on seeds 5..7"
is "$(sql "$db" "SELECT count(*) FROM (SELECT count(*) AS n FROM sim_runs GROUP BY policy, metric HAVING n != 3)")" \
	"0" "sim_runs: 3 rows per policy and metric"
bad=$(sql "$db" "SELECT r.policy, r.metric FROM sim_results r WHERE r.runs != 3
	OR abs(r.value - (SELECT avg(s.value) FROM sim_runs s WHERE s.set_id = r.set_id
		AND s.policy = r.policy AND s.metric = r.metric)) > 1e-9
	OR abs(r.ci95 - $t2 * r.sd / sqrt(3)) > 1e-6 * (1 + r.ci95)")
is "$bad" "" "sim_results: the mean of the runs, ci95 = t(0.975, 2) sd / sqrt(3)"
# recompute 6.1's paired deltas of a metric with spread from sim_runs
sql "$db" "SELECT p.value - b.value FROM sim_runs p JOIN sim_runs b
	ON b.run = p.run AND b.metric = p.metric AND b.policy = 'nogroup'
	WHERE p.policy = '6.1' AND p.metric = 'fallbacks'
	ORDER BY p.run" >"$TMP/d"
want=$(awk -v t=$t2 '{ v[NR] = $1; s += $1 } END {
	m = s / NR; for (i = 1; i <= NR; i++) q += (v[i] - m) ^ 2
	h = t * sqrt(q / (NR - 1)) / sqrt(NR)
	printf "%.2f %.2f %.2f", m, m - h, m + h }' "$TMP/d")
got=$(awk -F'\t' '$1 == "6.1" && $2 == "fallbacks" {
	printf "%.2f %.2f %.2f", $7, $9, $10 }' "$TMP/af.tsv")
is "$got" "$want" "6.1 - nogroup delta and interval recomputed from sim_runs"
ok "curves: the first run's, tied to the set" test "$(sql "$db" "SELECT count(*) FROM sim_curves WHERE set_id = (SELECT max(set_id) FROM sim_runs) AND policy = '6.1'")" -gt 50

# a policy list: the first is the baseline, what-ifs allowed
"$GFPAUDIT" simulate --experiment antifrag --runs 2 $small --tsv \
	--policy 2.6.24,2.6.24+9c0415e >"$TMP/wi.tsv" 2>/dev/null
is "$(awk -F'\t' 'NR > 1 { print $1 "=" $12 }' "$TMP/wi.tsv" | sort -u | sed 's/=.*significant/=v/' | sort -u | tr '\n' ' ')" \
	"2.6.24+9c0415e=v 2.6.24=baseline " "--policy A,B: B against A"
# one run: the one-run table, as before
is "$("$GFPAUDIT" simulate --experiment antifrag $small --tsv | head -1)" \
	"policy	metric	value" "--experiment defaults to one run"

# --- rule impact: verdict first, as-is and patched paired by seed ---
"$TOOLS/mkdb" "$TMP/i.db" || exit 1
{
	echo "INSERT INTO runs (command, tree, kernel_version, started_at, status) VALUES ('scan', '/tmp/k', '4.13', '2026-12-03T00:00:00Z', 'complete');"
	echo "INSERT INTO files (id, path, hash, size, parse_mode) VALUES (1, 'fs/a.c', '0', 1, 'lexical');"
	for n in 1 2 3 4 5 6 7 8; do
		echo "INSERT INTO sites (file_id, path, line, col, api, flags, size_const, lifetime, migratetype) VALUES (1, 'fs/a.c', $n, 1, '__get_free_page', 'GFP_TEMPORARY', NULL, 'scoped', 'reclaimable');"
		echo "INSERT INTO sites (file_id, path, line, col, api, flags, size_const, lifetime, migratetype) VALUES (1, 'fs/a.c', 1$n, 1, 'kmalloc', 'GFP_KERNEL', 512, 'stored', 'unmovable');"
	done
} | sqlite3 -batch "$TMP/i.db"
"$GFPAUDIT" simulate --db "$TMP/i.db" --rule gfp-temporary --runs 3 --tsv \
	$small >"$TMP/i.tsv" 2>"$TMP/i.err"
is "$?" "0" "--rule --runs 3"
is "$(head -1 "$TMP/i.tsv")" "verdict	policy	metric	runs	as-is	as-is_sd	as-is_ci95	patched	patched_sd	patched_ci95	delta	delta_sd	delta_ci95_low	delta_ci95_high	delta_pct" \
	"impact table leads with the verdict"
like "$(cat "$TMP/i.err")" "3 paired runs \(as-is and patched on each seed\), seeds 1\.\.3" \
	"paired runs said"
bad=$(awk -F'\t' 'NR > 1 {
	sig = ($13 + 0 > 0 || $14 + 0 < 0) ? "significant" : "not significant"
	if (sig != $1 || $4 != 3) print $3 }' "$TMP/i.tsv")
is "$bad" "" "impact verdicts follow the paired delta's interval"
nm=$(awk 'END { print NR - 1 }' "$TMP/i.tsv")
is "$(sql "$TMP/i.db" "SELECT count(*) FROM sim_runs a JOIN sim_runs p
	ON p.set_id = a.set_id AND p.policy = a.policy AND p.metric = a.metric
	AND p.run = a.run AND p.seed = a.seed AND p.variant = 'patched'
	WHERE a.variant = 'as-is'")" "$((nm * 3))" \
	"sim_runs: 3 paired rows (as-is, patched, same seed) per metric"
like "$("$GFPAUDIT" simulate --db "$TMP/i.db" --rule gfp-temporary --runs 2 \
	$small 2>/dev/null | head -1)" "^verdict +policy +metric +as-is \+- 95% CI +patched \+- 95% CI +delta +delta 95% CI" \
	"the text table leads with the verdict too"
is "$(sql "$TMP/i.db" "SELECT count(DISTINCT set_id) FROM sim_runs")" "2" \
	"each invocation is a set of its own"

# --- bad input: one line, exit 2 ---
exit_is 2 "--runs 0" "$GFPAUDIT" simulate --experiment antifrag --runs 0
exit_is 2 "--runs 1001" "$GFPAUDIT" simulate --experiment antifrag --runs 1001
exit_is 2 "--runs x" "$GFPAUDIT" simulate --experiment antifrag --runs x
exit_is 2 "--runs with --trace" "$GFPAUDIT" simulate --trace /dev/null --runs 2
exit_is 2 "--seed 0 with --runs" "$GFPAUDIT" simulate --experiment antifrag \
	--seed 0 --runs 2
exit_is 2 "seeds past the largest" "$GFPAUDIT" simulate --experiment antifrag \
	--seed 18446744073709551615 --runs 2
exit_is 2 "unknown policy in a list" "$GFPAUDIT" simulate --experiment antifrag \
	--policy 6.1,5.0
err=$("$GFPAUDIT" simulate --experiment antifrag --policy 6.1,5.0 2>&1 | head -1)
like "$err" "^gfpaudit simulate: unknown policy '5.0' \(nogroup, 2.6.24, 6.1, 2.6.24\+9c0415e\)" \
	"the error names the bad one"
exit_is 2 "a policy twice" "$GFPAUDIT" simulate --experiment antifrag \
	--policy 6.1,6.1
exit_is 2 "an empty list" "$GFPAUDIT" simulate --experiment antifrag --policy ,
done_testing
