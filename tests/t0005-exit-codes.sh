#!/bin/sh
# One contract for every command (README's exit-code table): 0 success,
# 1 a findings policy failed (report --fail-on, validate), 2 usage or
# input error, 3 internal error, 4 validate inconclusive.  Findings alone
# are not a failure (scan, rules --run, check: kbuild goes on, as with
# sparse); a patch with nothing to change is not an error.  Every error
# is one line starting "gfpaudit CMD: ".
. "$(dirname "$0")/lib.sh"

db=$TMP/m.db
"$GFPAUDIT" scan --no-progress --db "$db" "$MINIKERNEL" 2>/dev/null
mkdir -p "$TMP/plain/mm"
printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\n' >"$TMP/plain/Makefile"
printf 'void *f(void) { return kmalloc(8, GFP_KERNEL); }\n' >"$TMP/plain/mm/a.c"
"$GFPAUDIT" scan --no-progress --db "$TMP/plain.db" "$TMP/plain" 2>/dev/null

# CODE CMD DESCRIPTION ARGS...: the exit code, and for 2 the error line.
contract() {
	_code=$1 _cmd=$2 _d=$3; shift 3
	exit_is "$_code" "$_cmd: $_d exits $_code" "$GFPAUDIT" "$_cmd" "$@"
	if [ "$_code" = 2 ]; then
		like "$(grep -v '^  \|^usage\|^$\|^try\|^See\|^see' "$TMP/.out" | head -n 1)" \
			"^gfpaudit $_cmd: " "$_cmd: $_d: one line 'gfpaudit $_cmd: ...'"
	fi
}

contract 0 scan "a scan" --no-progress --db "$TMP/s.db" "$MINIKERNEL"
contract 2 scan "an unknown option" --nosuch "$MINIKERNEL"
contract 2 scan "a missing tree" --db "$TMP/s2.db" "$TMP/none"
contract 2 scan "an unknown arch" --arch vax "$MINIKERNEL"
contract 0 query "a query" --db "$db" "SELECT 1"
contract 2 query "a write statement" --db "$db" "DELETE FROM sites"
contract 2 query "a file that is not a database" --db /etc/passwd "SELECT 1"
contract 0 report "a report with findings" --db "$db" --format gcc
contract 1 report "--fail-on with findings" --db "$db" --format gcc --fail-on note
contract 2 report "an unknown format" --db "$db" --format pdf
contract 0 rules "rules --run with findings" --run --db "$db"
contract 2 rules "an unknown rule" --run --db "$db" nosuch-rule
contract 0 patch "nothing to change" --db "$TMP/plain.db" --rule gfp-temporary \
	--out "$TMP/series0" "$TMP/plain"
like "$(cat "$TMP/.out")" "nothing to change" "patch: saying so"
contract 0 patch "a series" --db "$db" --rule gfp-temporary --out "$TMP/series" "$MINIKERNEL"
contract 2 patch "an unknown rule" --db "$db" --rule nosuch --out "$TMP/x" "$MINIKERNEL"
contract 2 validate "a missing series" --db "$db" "$TMP/none" "$MINIKERNEL"
contract 0 simulate "--show-policy" --show-policy 6.1
contract 2 simulate "an unknown option" --nosuch
contract 2 fragstat "a missing file" --buddyinfo "$TMP/none"
# as kbuild runs it, from the tree root
exit_is 0 "check: a file with findings exits 0 (as sparse, so kbuild goes on)" \
	sh -c 'cd "$1" && "$2" check --db "$3" drivers/misc/tmpbuf.c' - \
	"$MINIKERNEL" "$GFPAUDIT" "$TMP/c.db"
ok "and it has findings" test "$(sql "$TMP/c.db" "SELECT count(*) FROM findings")" -gt 0
contract 2 merge "no input" "$TMP/out.db"
contract 0 help "help" scan
exit_is 2 "an unknown command exits 2" "$GFPAUDIT" nosuch
like "$(cat "$TMP/.out")" "^gfpaudit: 'nosuch' is not a gfpaudit command" "naming it"

# query --json is JSON for every SQLite type.
"$GFPAUDIT" query --db "$db" --json "SELECT x'00ff' AS b, 1e999 AS inf,
	-1e999 AS ninf, 0.5 AS r, NULL AS n, 'a\"b' AS t, 3 AS i" >"$TMP/j.json"
is "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])))' "$TMP/j.json")" \
	"[{'b': '00FF', 'inf': None, 'ninf': None, 'r': 0.5, 'n': None, 't': 'a\"b', 'i': 3}]" \
	"query --json: BLOB as hex, infinity as null, the rest as they are"
done_testing
