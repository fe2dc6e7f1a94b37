#!/bin/sh
# gfpaudit report --format md: every section, from the fixture database;
# Markdown escaping; -o writes safely and only where asked; bad input.
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib/report-fixture.sh"

db=$TMP/r.db
report_fixture "$db" || { echo "Bail out! fixture"; exit 1; }
md=$("$GFPAUDIT" report --db "$db" --format md)
is "$?" 0 "md report exits 0"
for h in "## Run summary" "### Parse modes" "## Flags by subsystem" \
	"### Lifetime" "### Context" "## Findings" "### All findings \\(4\\)" \
	"## Patch series and validation" "### Validation" \
	"## Allocator impact" "### Rule impact" "### Policies" \
	"### Fragmentation curves"; do
	like "$md" "$h" "section: $h"
done
like "$md" "\| tree \| $TMP/tree \|" "summary names the tree"
like "$md" "\| kernel version \| 6.1.0 \|" "summary has the version"
like "$md" "\| kbuild \| 3 \| 2 \|" "parse modes are counted"
# Subsystems from the fixture MAINTAINERS: proc_sysctl.c is PROC SYSCTL
# (more precise than fs/proc/), mm/slab.c matches the mm/sl?b* glob.
like "$md" "\| PROC FILESYSTEM \| \`GFP_TEMPORARY\` \| 2 \| 1 \| 2 \| 0 \|" \
	"PROC FILESYSTEM counts its GFP_TEMPORARY uses"
like "$md" "\| PROC SYSCTL \| \`GFP_TEMPORARY\` \| 1 \|" \
	"the most precise section wins"
like "$md" "\| SLAB ALLOCATOR \| \`SLAB_RECLAIM_ACCOUNT\` \| 1 \|" \
	"wildcard patterns match"
like "$md" "Subsystems: $TMP/tree/MAINTAINERS \(4 sections\)" \
	"the report says where subsystems came from"
like "$md" "\| scoped \| 2 \| 0 \| 2 \| 0 \| 0 \| 2 \|" "lifetime x context"
like "$md" "\| atomic \| 1 \| 1 \|" "context distribution"
like "$md" "fs/proc/base.c:30:2 \| sleep-in-atomic \| error" \
	"a finding with path:line:col and rule"
n=$(printf '%s\n' "$md" | grep -c ':[0-9]*:[0-9]*`* | [a-z-]* | \(error\|warning\|note\) |')
is "$n" 4 "every finding is listed"
like "$md" "\\\\\| pipe" "a | in a cell is escaped"
like "$md" "multi line message" "a newline in a cell becomes a space"
like "$md" "0001-fs-proc-base.patch \| .* \| apply: pass, compile: pass \|" \
	"patches show their validation"
like "$md" "\| checkpatch \| fail \| WARNING: line length" "validation rows"
like "$md" "\| impact \| temporary-to-kernel \| 6.1 \| \`mixed_pageblocks\` \| 40 \| 31 \| -9 \|" \
	"impact table: as-is, patched, change"
like "$md" "\| antifrag \| fallbacks \| 1234 \|  \|  \|" "policy table: one column per policy"
like "$md" "\| impact, temporary-to-kernel \| 6.1 patched \| 21 \| 500 \| 300 \| 300 \|" \
	"curve summary: first, minimum, last"

# No MAINTAINERS: grouped by directory, and the report says so.
rm "$TMP/tree/MAINTAINERS"
md=$("$GFPAUDIT" report --db "$db")
like "$md" "\| fs/proc/ \| \`GFP_TEMPORARY\` \| 3 \| 2 \|" \
	"without MAINTAINERS, grouped by directory"
like "$md" "Subsystems: directories: .*MAINTAINERS could not be read" \
	"the fallback is stated"
md=$("$GFPAUDIT" report --db "$db" --maintainers "$TESTS_DIR/lib/report-fixture.MAINTAINERS")
like "$md" "\| PROC SYSCTL \|" "--maintainers FILE is used"

# -o: the file is written, nothing else in its directory.
mkdir "$TMP/out"
ok "-o writes the report" "$GFPAUDIT" report --db "$db" -o "$TMP/out/r.md"
is "$(ls -A "$TMP/out")" "r.md" "-o leaves no temporary file behind"
is "$(head -1 "$TMP/out/r.md")" "# gfpaudit report" "the file is the report"
is "$(stat -c %a "$TMP/out/r.md")" "$(umask 022; touch "$TMP/m"; stat -c %a "$TMP/m")" \
	"the file gets the usual permissions"
echo precious >"$TMP/victim"
ln -s "$TMP/victim" "$TMP/out/link.md"
ok "-o over a symlink" "$GFPAUDIT" report --db "$db" -o "$TMP/out/link.md"
is "$(cat "$TMP/victim")" "precious" "the symlink's target is not written"
exit_is 2 "-o into a missing directory" \
	"$GFPAUDIT" report --db "$db" -o "$TMP/nodir/r.md"
exit_is 2 "-o naming a directory" "$GFPAUDIT" report --db "$db" -o "$TMP/out"
before=$(sha256sum "$db" | cut -c1-64)
exit_is 2 "-o naming the database is refused" \
	"$GFPAUDIT" report --db "$db" -o "$db"
is "$(sha256sum "$db" | cut -c1-64)" "$before" "the database is intact"
ok "report to /dev/null (a device)" "$GFPAUDIT" report --db "$db" -o /dev/null

exit_is 2 "unknown format" "$GFPAUDIT" report --db "$db" --format pdf
out=$("$GFPAUDIT" report --db "$db" --format pdf 2>&1 | head -1)
like "$out" "unknown format 'pdf'" "the error names the format"
exit_is 2 "missing database" "$GFPAUDIT" report --db "$TMP/none.db"
ok "the missing database is not created" test ! -e "$TMP/none.db"
printf 'junk\n' >"$TMP/junk.db"
exit_is 2 "a non-database" "$GFPAUDIT" report --db "$TMP/junk.db"
"$TOOLS/mkdb" "$TMP/empty.db"
md=$("$GFPAUDIT" report --db "$TMP/empty.db")
is "$?" 0 "an empty (fresh) database reports"
like "$md" "_no findings_" "empty sections say so"
done_testing
