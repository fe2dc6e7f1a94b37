#!/bin/sh
# The rules run when a scan finishes: the findings (and so every report
# format) are current without a separate `rules --run`; --run-rules
# chooses them, --no-rules skips them, a wrong name is refused up front.
. "$(dirname "$0")/lib.sh"

findings() { sql "$1" "SELECT rule, path, line, message FROM findings ORDER BY 1, 2, 3"; }

ok "scan" "$GFPAUDIT" scan --no-progress --db "$TMP/a.db" "$MINIKERNEL"
n=$(sql "$TMP/a.db" "SELECT count(*) FROM findings")
ok "the scan left findings ($n)" test "$n" -gt 0
cp "$TMP/a.db" "$TMP/b.db"
"$GFPAUDIT" rules --run --db "$TMP/b.db" >/dev/null 2>&1
is "$(findings "$TMP/a.db")" "$(findings "$TMP/b.db")" \
	"they are what rules --run gives"
"$GFPAUDIT" report --db "$TMP/a.db" --format sarif >"$TMP/a.sarif" 2>/dev/null
r=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["runs"][0]["results"]))' "$TMP/a.sarif")
ok "report --format sarif lists them ($r results)" test "$r" -gt 0

ok "scan --no-rules" "$GFPAUDIT" scan --no-progress --no-rules --db "$TMP/c.db" "$MINIKERNEL"
is "$(sql "$TMP/c.db" "SELECT count(*) FROM findings")" 0 "leaves no findings"

ok "scan --run-rules gfp-temporary" "$GFPAUDIT" scan --no-progress \
	--run-rules gfp-temporary --db "$TMP/d.db" "$MINIKERNEL"
is "$(sql "$TMP/d.db" "SELECT group_concat(DISTINCT rule) FROM findings")" \
	gfp-temporary "evaluates that rule only"

exit_is 2 "an unknown --run-rules name is refused" "$GFPAUDIT" scan \
	--run-rules gfp-temporary,gfp-nonesuch --db "$TMP/e.db" "$MINIKERNEL"
like "$(cat "$TMP/.out")" "^gfpaudit scan: --run-rules: no rule 'gfp-nonesuch'" \
	"in one line naming it"
ok "before the scan writes anything" test ! -e "$TMP/e.db"

# A re-scan after an edit updates the findings: a file that loses its
# GFP_TEMPORARY loses its finding.
cp -r "$MINIKERNEL" "$TMP/tree"
f=$(sql "$TMP/a.db" "SELECT path FROM findings WHERE rule = 'gfp-temporary' LIMIT 1")
before=$(sql "$TMP/a.db" "SELECT count(*) FROM findings WHERE rule = 'gfp-temporary' AND path = '$f'")
"$GFPAUDIT" scan --no-progress --db "$TMP/t.db" "$TMP/tree" 2>/dev/null
sed -i 's/GFP_TEMPORARY/GFP_KERNEL/g' "$TMP/tree/$f"
"$GFPAUDIT" scan --no-progress --db "$TMP/t.db" "$TMP/tree" 2>/dev/null
is "$(sql "$TMP/t.db" "SELECT count(*) FROM findings WHERE rule = 'gfp-temporary' AND path = '$f'")" \
	0 "a re-scan drops the findings of a fixed file ($before before)"
done_testing
