#!/bin/sh
# Shared start of the bench/NN-*.sh scripts (sourced, not run by
# bench/run.sh): the test helpers (tests/lib.sh: TMP, the cached 6.1
# trees), the binary, the job count and the RESULT line format that
# bench/run.sh tabulates.
set -u
LC_ALL=C
export LC_ALL
SRC_DIR=${SRC_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
. "$SRC_DIR/tests/lib.sh" >/dev/null
GFPAUDIT=${GFPAUDIT:-$SRC_DIR/gfpaudit}
JOBS=${JOBS:-2}

# result NAME FIGURE TARGET NOTE
result() { printf 'RESULT\t%s\t%s\t%s\t%s\n' "$@"; }
