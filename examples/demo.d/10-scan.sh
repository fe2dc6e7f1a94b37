#!/bin/sh
# Demo step 10: scan the minikernel, then ask the database the seed
# question: who uses GFP_TEMPORARY, and what does each site evaluate to?
set -eu
"$GFPAUDIT" scan --db "$DB" "$SRC_DIR/examples/minikernel"
echo "-- GFP_TEMPORARY uses by context:"
"$GFPAUDIT" query --db "$DB" --table \
	"SELECT context, count(*) AS uses FROM flag_uses
	 WHERE flag = 'GFP_TEMPORARY' GROUP BY context ORDER BY uses DESC"
echo "-- allocation sites that end up reclaimable:"
"$GFPAUDIT" query --db "$DB" --table \
	"SELECT path || ':' || line AS site, api, flags,
	 printf('0x%x', gfp_mask) AS mask, migratetype
	 FROM sites WHERE migratetype = 'reclaimable' ORDER BY path, line"
