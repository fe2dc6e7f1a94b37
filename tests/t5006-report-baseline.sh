#!/bin/sh
# report --baseline and --fail-on, the CI mode: findings are matched
# across runs by a fingerprint without the line, so lines inserted above
# a finding leave it unchanged; a new use is new; a fixed one is absent.
. "$(dirname "$0")/lib.sh"

cp -r "$MINIKERNEL" "$TMP/base"
cp -r "$MINIKERNEL" "$TMP/head"
"$GFPAUDIT" scan --no-progress --db "$TMP/base.db" "$TMP/base" 2>/dev/null
f=$(sql "$TMP/base.db" "SELECT path FROM findings WHERE rule = 'gfp-temporary' ORDER BY path LIMIT 1")
fixed=$(sql "$TMP/base.db" "SELECT path FROM findings WHERE rule = 'gfp-temporary' AND path <> '$f' ORDER BY path DESC LIMIT 1")
nfixed=$(sql "$TMP/base.db" "SELECT count(*) FROM findings WHERE path = '$fixed'")
total=$(sql "$TMP/base.db" "SELECT count(*) FROM findings")
# head: two lines inserted at the top of $f, $fixed cleaned, one new file.
sed -i '1i /* inserted */\n/* inserted */' "$TMP/head/$f"
sed -i 's/GFP_TEMPORARY/GFP_KERNEL/g' "$TMP/head/$fixed"
cat >"$TMP/head/mm/newbuf.c" <<'C'
#include <linux/slab.h>
void *newbuf(void)
{
	return kmalloc(64, GFP_TEMPORARY);
}
C
"$GFPAUDIT" scan --no-progress --db "$TMP/head.db" "$TMP/head" 2>/dev/null

exit_is 0 "report --baseline" "$GFPAUDIT" report --db "$TMP/head.db" \
	--baseline "$TMP/base.db" --format sarif -o "$TMP/r.sarif"
like "$(cat "$TMP/.out")" "against .*base.db: [1-9][0-9]* new, " "counts on stderr"
python3 - "$TMP/r.sarif" "$f" "$fixed" >"$TMP/states" <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))["runs"][0]["results"]
for r in res:
    uri = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert r["partialFingerprints"]["gfpaudit/v2"], r
    print(r["baselineState"], uri, r["ruleId"])
PY
is "$(grep -c "^new mm/newbuf.c" "$TMP/states")" \
	"$(grep -c " mm/newbuf.c" "$TMP/states")" "the new file's findings are new"
ok "there are some" grep -q "^new mm/newbuf.c gfp-temporary" "$TMP/states"
is "$(grep -c " $f " "$TMP/states")" "$(grep -c "^unchanged $f " "$TMP/states")" \
	"findings below inserted lines are unchanged"
is "$(grep -c "^absent $fixed " "$TMP/states")" "$nfixed" \
	"the fixed file's findings are absent"
is "$(grep -c "^unchanged " "$TMP/states")" "$((total - nfixed))" \
	"every other finding is unchanged"

"$GFPAUDIT" report --db "$TMP/head.db" --baseline "$TMP/base.db" \
	--format gcc >"$TMP/gcc" 2>/dev/null
like "$(head -n 1 "$TMP/gcc")" "^mm/newbuf.c:" "gcc lists the new ones first"
"$GFPAUDIT" report --db "$TMP/head.db" --baseline "$TMP/base.db" >"$TMP/md" 2>/dev/null
like "$(cat "$TMP/md")" "Against the baseline: [0-9]+ new, [0-9]+ unchanged" \
	"md says how many are old"

exit_is 1 "--fail-on note fails on a new note" "$GFPAUDIT" report \
	--db "$TMP/head.db" --baseline "$TMP/base.db" --format gcc --fail-on note
like "$(cat "$TMP/.out")" "new findings? at note or above" "saying how many"
exit_is 0 "--fail-on error: no new error" "$GFPAUDIT" report \
	--db "$TMP/head.db" --baseline "$TMP/base.db" --format gcc --fail-on error
exit_is 0 "the base against itself fails on nothing" "$GFPAUDIT" report \
	--db "$TMP/base.db" --baseline "$TMP/base.db" --format gcc --fail-on note
exit_is 1 "without a baseline every finding counts" "$GFPAUDIT" report \
	--db "$TMP/base.db" --format gcc --fail-on note
exit_is 2 "a bad level is refused" "$GFPAUDIT" report --db "$TMP/base.db" \
	--fail-on severe
like "$(cat "$TMP/.out")" "^gfpaudit:? report: --fail-on wants note, warning or error" "in one line"
exit_is 2 "a missing baseline is refused" "$GFPAUDIT" report \
	--db "$TMP/head.db" --baseline "$TMP/none.db"
like "$(cat "$TMP/.out")" "^gfpaudit:? report: --baseline .*none.db: " "naming it"
printf 'junk' >"$TMP/junk.db"
exit_is 2 "a baseline that is not a database" "$GFPAUDIT" report \
	--db "$TMP/head.db" --baseline "$TMP/junk.db"

# SARIF fixes: each replacement's deleted region is the flag's token in
# the file, and the inserted text is the rule's replacement.
python3 - "$TMP/r.sarif" "$TMP/head" >"$TMP/fixes" <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))["runs"][0]["results"]
n = bad = 0
for r in res:
    for fx in r.get("fixes", []):
        for ch in fx["artifactChanges"]:
            lines = open(sys.argv[2] + "/" + ch["artifactLocation"]["uri"]).read().split("\n")
            for rep in ch["replacements"]:
                d = rep["deletedRegion"]
                tok = lines[d["startLine"] - 1][d["startColumn"] - 1:d["endColumn"] - 1]
                n += 1
                if tok != "GFP_TEMPORARY" or rep["insertedContent"]["text"] != "GFP_KERNEL":
                    bad += 1
print(n, bad)
PY
read nfix badfix <"$TMP/fixes"
ok "gfp-temporary findings carry fixes ($nfix)" test "$nfix" -gt 0
is "$badfix" 0 "each replaces exactly the GFP_TEMPORARY token by GFP_KERNEL"

# versionControlProvenance: the head commit and the remote, without the
# credentials a remote URL may hold.
(cd "$TMP/head" && git init -q && git remote add origin \
	https://user:secret@example.org/linux.git && git add -A &&
	git -c user.email=t@t -c user.name=t commit -qm head) >/dev/null 2>&1
"$GFPAUDIT" scan --no-progress --db "$TMP/git.db" "$TMP/head" 2>/dev/null
"$GFPAUDIT" report --db "$TMP/git.db" --format sarif >"$TMP/g.sarif" 2>/dev/null
vcp=$(python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))["runs"][0]["versionControlProvenance"][0]; print(v["repositoryUri"], v["revisionId"])' "$TMP/g.sarif")
is "$vcp" "https://example.org/linux.git $(git -C "$TMP/head" rev-parse HEAD)" \
	"versionControlProvenance names the remote and the revision"
done_testing
