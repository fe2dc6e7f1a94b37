#!/bin/sh
# The classifiers are one ordered list (analyzer/check_list.h): listed
# by --list-classifiers, turned off by name with --disable, chosen with
# --enable; a name that is no classifier is refused with the list.  The
# default scan runs them all, as when they registered themselves.
. "$(dirname "$0")/lib.sh"

list=$("$GFPAUDIT" scan --list-classifiers)
is "$(echo "$list" | wc -l | tr -d ' ')" 7 "seven classifiers"
like "$list" "held_across_sleep" "named as their .name"

cols="lifetime, held_across_sleep, context, gfp_param, flag_effective"
"$GFPAUDIT" scan --no-progress --db "$TMP/all.db" "$MINIKERNEL" 2>/dev/null
ok "scan --disable held_across_sleep" "$GFPAUDIT" scan --no-progress \
	--disable held_across_sleep --db "$TMP/d.db" "$MINIKERNEL"
is "$(sql "$TMP/d.db" "SELECT count(*) FROM sites WHERE held_across_sleep IS NOT NULL")" 0 \
	"leaves held_across_sleep NULL"
is "$(sql "$TMP/d.db" "SELECT path, line, lifetime, context FROM sites ORDER BY 1, 2")" \
	"$(sql "$TMP/all.db" "SELECT path, line, lifetime, context FROM sites ORDER BY 1, 2")" \
	"and the other classifiers' answers as they were"
n=$(sql "$TMP/all.db" "SELECT count(*) FROM sites WHERE held_across_sleep IS NOT NULL")
ok "which a full scan sets ($n sites)" test "$n" -gt 0
ok "a re-scan with all of them" "$GFPAUDIT" scan --no-progress --force \
	--db "$TMP/d.db" "$MINIKERNEL"
is "$(sql "$TMP/d.db" "SELECT $cols FROM sites ORDER BY path, line")" \
	"$(sql "$TMP/all.db" "SELECT $cols FROM sites ORDER BY path, line")" \
	"gives the full answers back"
ok "scan --enable lifetime" "$GFPAUDIT" scan --no-progress --enable lifetime \
	--db "$TMP/e.db" "$MINIKERNEL"
is "$(sql "$TMP/e.db" "SELECT count(*) FROM sites WHERE context IS NOT NULL OR held_across_sleep IS NOT NULL")" 0 \
	"runs lifetime only"
ok "but lifetime" test "$(sql "$TMP/e.db" "SELECT count(*) FROM sites WHERE lifetime IS NOT NULL")" -gt 0
is "$(sql "$TMP/e.db" "SELECT json_extract(options, '\$.enable') FROM runs")" lifetime \
	"runs.options records the choice"
exit_is 2 "an unknown classifier is refused" "$GFPAUDIT" scan \
	--disable nosuch --db "$TMP/x.db" "$MINIKERNEL"
like "$(cat "$TMP/.out")" "^gfpaudit scan: no classifier 'nosuch' \\(context, " "with the list"
ok "before anything is written" test ! -e "$TMP/x.db"
done_testing
