#!/bin/sh
# Token extents (analyzer/tu.c: token_end): a token ends where the gap of
# whitespace and line splices before the next one starts; a // comment
# runs to its line's end, trailing blanks and all.  Wrong ends would
# misplace or lose flag uses and sites.
. "$(dirname "$0")/lib.sh"

tree=$TMP/tree
mkdir -p "$tree/include/linux" "$tree/fs"
cp "$MINIKERNEL/Makefile" "$tree/"
cp "$MINIKERNEL/include/linux/gfp.h" "$tree/include/linux/"
# Trailing blanks after a // comment, a CRLF line, a splice between a
# call's name and its '(', a comment right after a token, a file that
# ends in a token with no newline.
printf '%s\n' \
	'// GFP_TEMPORARY in a comment with trailing blanks   ' \
	'static void *a(void)' \
	'{' \
	'	return kmalloc(8, GFP_TEMPORARY);/* GFP_TEMPORARY */' \
	'}' \
	'static void *b(void)' \
	'{' \
	'	return kmalloc \' \
	'		(16, GFP_TEMPORARY); // GFP_TEMPORARY ' >"$tree/fs/ends.c"
printf 'static void *c(void) { return kzalloc(4, GFP_TEMPORARY); }\r\n' \
	>>"$tree/fs/ends.c"
printf 'int last = GFP_TEMPORARY' >>"$tree/fs/ends.c"

ok "scan" "$GFPAUDIT" scan --no-progress --db "$TMP/t.db" "$tree"
is "$(sql "$TMP/t.db" "SELECT line, col, context FROM flag_uses
	WHERE path = 'fs/ends.c' ORDER BY line, col")" \
"1	4	comment
4	20	call_arg
4	38	comment
9	8	call_arg
9	27	comment
10	42	call_arg
11	12	initializer" "every use, at its line and column, in its context"
is "$(sql "$TMP/t.db" "SELECT line, api, flags FROM sites
	WHERE path = 'fs/ends.c' ORDER BY line")" \
"4	kmalloc	GFP_TEMPORARY
8	kmalloc	GFP_TEMPORARY
10	kzalloc	GFP_TEMPORARY" "every site, the spliced call's included"
done_testing
