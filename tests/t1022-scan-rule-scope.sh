#!/bin/sh
# scan --rule NAME (issue 7's treewide job): only the files that name one
# of a replace rule's flags are analysed, and the series written from that
# database is the one a whole-tree scan gives.  Files the database holds
# stay jobs (their rows never go stale), and a later whole scan completes
# the database.
. "$(dirname "$0")/lib.sh"

MK=$TMP/mk
cp -a "$MINIKERNEL" "$MK"
full=$TMP/full.db
scoped=$TMP/scoped.db

ok "whole scan" "$GFPAUDIT" scan --no-progress --db "$full" "$MK"
ok "scan --rule gfp-temporary" "$GFPAUDIT" scan --no-progress \
	--rule gfp-temporary --db "$scoped" "$MK"
# The .c/.h files that name GFP_TEMPORARY as a word (the scan's files).
named=$(cd "$MK" && grep -rlw --include='*.[ch]' GFP_TEMPORARY . |
	sed 's|^\./||' | sort)
is "$(sql "$scoped" "SELECT path FROM files ORDER BY path")" "$named" \
	"files: exactly those that name GFP_TEMPORARY"
uses="SELECT path, line, col, flag, context, ifnull(function, '') FROM
	flag_uses WHERE flag = 'GFP_TEMPORARY' ORDER BY 1, 2, 3"
is "$(sql "$scoped" "$uses")" "$(sql "$full" "$uses")" \
	"its GFP_TEMPORARY uses are the whole scan's"
sites="SELECT path, line, api, flags, ifnull(gfp_param, '') FROM sites
	WHERE path IN (SELECT path FROM files) ORDER BY 1, 2, 3"
is "$(sql "$scoped" "$sites")" \
	"$(sql "$full" "SELECT path, line, api, flags, ifnull(gfp_param, '')
		FROM sites WHERE path IN ($(printf "'%s'," $named)'') ORDER BY 1, 2, 3")" \
	"the sites of those files are the whole scan's"
is "$(sql "$scoped" "SELECT json_extract(options, '\$.rule') FROM runs")" \
	gfp-temporary "runs.options records the rule"

strip() {
	cat "$1"/*.patch | grep -v '^From [0-9a-f]\{40\}\|^Date:\|^index \|^  gfpaudit '
}
ok "patch from the whole scan" "$GFPAUDIT" patch --db "$full" \
	--rule gfp-temporary --maintainers builtin --out "$TMP/s-full" "$MK"
ok "patch from the scoped scan" "$GFPAUDIT" patch --db "$scoped" \
	--rule gfp-temporary --maintainers builtin --out "$TMP/s-scoped" "$MK"
is "$(strip "$TMP/s-scoped")" "$(strip "$TMP/s-full")" \
	"the two series are the same"

# A file in the database that loses the name is still re-scanned.
sed -i 's/GFP_TEMPORARY/GFP_KERNEL/g' "$MK/fs/namei.c"
ok "re-scan --rule after fs/namei.c lost its uses" "$GFPAUDIT" scan \
	--no-progress --rule gfp-temporary --db "$scoped" "$MK"
is "$(sql "$scoped" "SELECT count(*) FROM flag_uses
	WHERE path = 'fs/namei.c' AND flag = 'GFP_TEMPORARY'")" 0 \
	"its stale uses are gone"
is "$(sql "$scoped" "SELECT count(*) FROM files WHERE path = 'fs/namei.c'")" \
	1 "and the file keeps its row"

# A whole scan afterwards fills in the rest: the same as a fresh one.
ok "whole scan into the scoped database" "$GFPAUDIT" scan --no-progress \
	--db "$scoped" "$MK"
ok "fresh whole scan" "$GFPAUDIT" scan --no-progress --db "$TMP/fresh.db" "$MK"
all="SELECT path, line, api, flags, ifnull(gfp_param, '') FROM sites
	ORDER BY 1, 2, 3"
is "$(sql "$scoped" "$all")" "$(sql "$TMP/fresh.db" "$all")" \
	"then every site of the tree is there, as in a fresh whole scan"

exit_is 2 "--rule of a rule that is not a replace" "$GFPAUDIT" scan \
	--rule reclaimable-noop --db "$TMP/x.db" "$MK"
like "$(cat "$TMP/.out")" "only a replace rule scopes a scan" \
	"it says why"
exit_is 2 "--rule of no rule" "$GFPAUDIT" scan --rule no-such-rule \
	--db "$TMP/x.db" "$MK"
like "$(cat "$TMP/.out")" "no rule 'no-such-rule'" "it names the rule"
done_testing
