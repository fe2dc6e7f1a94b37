#!/bin/sh
# make demo: the whole pipeline that exists so far, on examples/minikernel.
set -eu
SRC_DIR=$(cd "$(dirname "$0")/.." && pwd)
GFPAUDIT=${GFPAUDIT:-$SRC_DIR/gfpaudit}
OUT=${DEMO_OUT:-$SRC_DIR/demo-out}
mkdir -p "$OUT"
DB=$OUT/minikernel.db
rm -f "$DB" "$DB-wal" "$DB-shm"
for step in "$SRC_DIR"/examples/demo.d/*.sh; do
	[ -f "$step" ] || continue
	echo "== $(basename "$step" .sh)"
	GFPAUDIT=$GFPAUDIT OUT=$OUT DB=$DB SRC_DIR=$SRC_DIR sh "$step"
done
echo "demo: results are in $OUT"
