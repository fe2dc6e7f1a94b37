#!/bin/sh
# A database on a full or read-only filesystem: a clear one-line error,
# a non-zero exit, and nothing corrupted.
. "$(dirname "$0")/lib.sh"
require_cmd scan

[ "$(id -u)" = 0 ] || skip_all "needs root to mount a small tmpfs"
mnt=$TMP/mnt
mkdir -p "$mnt"
mount -t tmpfs -o size=64k tmpfs "$mnt" 2>/dev/null ||
	skip_all "cannot mount tmpfs here"
trap 'umount "$mnt" 2>/dev/null; rm -rf "$TMP"' EXIT

# Full disk: the database does not fit in 64 KiB.
"$GFPAUDIT" scan --db "$mnt/full.db" "$MINIKERNEL" >"$TMP/full.out" 2>&1
rc=$?
ok "scan on a full disk exits non-zero" test $rc != 0
like "$(tail -1 "$TMP/full.out")" "full.db.*(full|space)" \
	"the error names the database and the cause"
if [ -f "$mnt/full.db" ]; then
	is "$(sql "$mnt/full.db" 'PRAGMA integrity_check' 2>&1)" "ok" \
		"the partial database is consistent"
fi

# Read-only location: an existing good database stays as it was.
umount "$mnt"
mount -t tmpfs -o size=8m tmpfs "$mnt"
ok "scan into a roomy tmpfs" "$GFPAUDIT" scan --db "$mnt/ro.db" "$MINIKERNEL"
sites=$(sql "$mnt/ro.db" 'SELECT count(*) FROM sites')
sqlite3 "$mnt/ro.db" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
mount -o remount,ro "$mnt"
exit_is 2 "scan into a read-only location exits 2" \
	"$GFPAUDIT" scan --db "$mnt/ro.db" "$MINIKERNEL"
like "$(tail -1 "$TMP/.out")" "ro.db" "the error names the database"
is "$(sqlite3 "file:$mnt/ro.db?immutable=1" 'SELECT count(*) FROM sites')" \
	"$sites" "its rows are intact"
ok "query still reads it" "$GFPAUDIT" query --db "$mnt/ro.db" "SELECT 1"
done_testing
