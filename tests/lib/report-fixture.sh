# report_fixture DB: the hand-written findings database of
# tests/lib/report-fixture.sql, for a fixture tree $TMP/tree whose
# MAINTAINERS is tests/lib/report-fixture.MAINTAINERS.  Sourced by t50xx.
report_fixture() {
	mkdir -p "$TMP/tree" &&
	cp "$TESTS_DIR/lib/report-fixture.MAINTAINERS" "$TMP/tree/MAINTAINERS" &&
	"$TOOLS/mkdb" "$1" &&
	sed "s|@TREE@|$TMP/tree|" "$TESTS_DIR/lib/report-fixture.sql" |
		sqlite3 -bail "$1"
}
