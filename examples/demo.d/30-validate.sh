#!/bin/sh
# Demo step 30: validate the series in a scratch copy (the tree is only
# read): git am, clang and sparse before/after with each file's arch
# headers, checkpatch.pl when the tree has it, users of removed macros.
# Environment from examples/demo.sh: GFPAUDIT, OUT, DB, SRC_DIR.
set -eu
"$GFPAUDIT" validate --db "$DB" "$OUT/patches-gfp-temporary" \
	"$SRC_DIR/examples/minikernel"
