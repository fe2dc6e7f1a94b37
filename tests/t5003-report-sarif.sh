#!/bin/sh
# gfpaudit report --format sarif: SARIF 2.1.0 as code-scanning wants it.
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib/report-fixture.sh"

db=$TMP/r.db
report_fixture "$db" || { echo "Bail out! fixture"; exit 1; }
ok "sarif report" "$GFPAUDIT" report --db "$db" --format sarif -o "$TMP/r.sarif"
ok "it is JSON (python3 -m json.tool)" python3 -m json.tool "$TMP/r.sarif"

cat >"$TMP/check.py" <<'PY'
import json, sys
log = json.load(open(sys.argv[1], encoding="utf-8"))
def out(k, v): print("%s=%s" % (k, v))
out("version", log["version"])
out("schema", log["$schema"].endswith("sarif-2.1.0.json"))
run = log["runs"][0]
out("runs", len(log["runs"]))
d = run["tool"]["driver"]
out("driver", d["name"])
ids = [r["id"] for r in d["rules"]]
out("rules", ",".join(ids))
out("rules_have_text", all(r["shortDescription"]["text"] for r in d["rules"]))
res = run["results"]
out("results", len(res))
ok = True
for r in res:
    assert r["ruleId"] in ids
    assert ids[r["ruleIndex"]] == r["ruleId"]
    assert r["level"] in ("error", "warning", "note", "none")
    assert isinstance(r["message"]["text"], str) and r["message"]["text"]
    loc = r["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uriBaseId"] == "SRCROOT"
    assert "/" in loc["artifactLocation"]["uri"] and \
        not loc["artifactLocation"]["uri"].startswith("/")
    assert isinstance(loc["region"]["startLine"], int) and loc["region"]["startLine"] >= 1
    assert isinstance(loc["region"]["startColumn"], int) and loc["region"]["startColumn"] >= 1
out("structure", ok)
first = {r["message"]["text"]: r for r in res}
s = [r for r in res if r["ruleId"] == "sleep-in-atomic"][0]
out("sleep", "%s:%d:%d:%s" % (s["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
    s["locations"][0]["physicalLocation"]["region"]["startLine"],
    s["locations"][0]["physicalLocation"]["region"]["startColumn"], s["level"]))
out("script_msg", '<script>alert("x")</script>' in s["message"]["text"])
out("uri_escaped", any(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "drivers/x/%3Cb%3E.c" for r in res))
out("newline_kept", any("multi\nline" in r["message"]["text"] for r in res))
out("srcroot", run["originalUriBaseIds"]["SRCROOT"]["uri"])
out("sleep_desc", [r["shortDescription"]["text"] for r in d["rules"] if r["id"] == "sleep-in-atomic"][0])
out("levels", ",".join(sorted(set(r["level"] for r in res))))
PY
out=$(python3 "$TMP/check.py" "$TMP/r.sarif" 2>&1)
is "$?" 0 "the structure checks pass"
like "$out" "version=2.1.0" "version 2.1.0"
like "$out" "schema=True" "\$schema is the 2.1.0 schema"
like "$out" "driver=gfpaudit" "tool.driver.name"
like "$out" "rules=reclaimable-without-shrinker,sleep-in-atomic,temporary-to-kernel" \
	"one driver rule per rule with findings"
like "$out" "rules_have_text=True" "rules have descriptions"
like "$out" "results=4" "one result per finding"
like "$out" "structure=True" "ruleId, ruleIndex, level, message, physicalLocation"
like "$out" "sleep=fs/proc/base.c:30:2:error" "location and level of a finding"
like "$out" "script_msg=True" "messages are JSON-escaped, not mangled"
like "$out" "uri_escaped=True" "artifact URIs are percent-encoded"
like "$out" "newline_kept=True" "newlines survive in JSON"
like "$out" "srcroot=file://$TMP/tree/" "SRCROOT points at the tree"
like "$out" "levels=error,note,warning" "severities map to SARIF levels"
desc=$(sed -n 's/^description: //p' "$SRC_DIR/data/sleep-in-atomic.rule")
ok "data/sleep-in-atomic.rule has a description" test -n "$desc"
like "$out" "sleep_desc=$desc" "a rule's shortDescription is its rule file's description"

"$TOOLS/mkdb" "$TMP/e.db"
sqlite3 "$TMP/e.db" "INSERT INTO runs(command, tree, started_at) VALUES ('scan', '/t', 'x')"
out=$("$GFPAUDIT" report --db "$TMP/e.db" --format sarif | python3 -c '
import json, sys; l = json.load(sys.stdin); r = l["runs"][0]
print(len(r["results"]), len(r["tool"]["driver"]["rules"]))')
is "$out" "0 0" "no findings: empty results and rules arrays"
done_testing
