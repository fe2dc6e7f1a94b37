#!/bin/sh
# The dispatcher: help, usage, exit codes.
. "$(dirname "$0")/lib.sh"

ok "help lists every command" sh -c "'$GFPAUDIT' help | grep -q 'scan' &&
	'$GFPAUDIT' help | grep -q 'fragstat' && '$GFPAUDIT' help | grep -q 'rules'"
exit_is 0 "--version" "$GFPAUDIT" --version
exit_is 2 "no command is a usage error" "$GFPAUDIT"
exit_is 2 "unknown command exits 2" "$GFPAUDIT" frobnicate
out=$("$GFPAUDIT" frobnicate 2>&1)
like "$out" "frobnicate" "unknown command is named in the error"
for c in scan query report patch validate simulate fragstat merge rules; do
	h1=$("$GFPAUDIT" help $c)
	h2=$("$GFPAUDIT" $c --help)
	is "$h2" "$h1" "$c --help equals help $c"
	like "$h1" "^usage: gfpaudit $c" "$c has a usage line"
done
exit_is 2 "help of an unknown command" "$GFPAUDIT" help nope
done_testing
