#!/bin/sh
# --arch: every command that takes one refuses an arch it has no target
# for, in one line that lists the known ones, before touching anything.
. "$(dirname "$0")/lib.sh"

mk=$MINIKERNEL
db=$TMP/a.db

# one line on stderr, exit 2, nothing on stdout
refused() {
	_cmd=$1 _arch=$2; shift 2
	"$@" >"$TMP/out" 2>"$TMP/err"
	is "$?" 2 "$_cmd --arch '$_arch' exits 2"
	is "$(wc -l <"$TMP/err" | tr -d ' ')" 1 \
		"$_cmd --arch '$_arch': one line"
	_want="^gfpaudit $_cmd: unknown arch '$_arch'"
	like "$(cat "$TMP/err")" "$_want \(known: arm, arm64, .*, x86[,)]" \
		"$_cmd --arch '$_arch': names the arch and the known ones"
	is "$(cat "$TMP/out")" "" "$_cmd --arch '$_arch': nothing on stdout"
}

refused scan nosucharch "$GFPAUDIT" scan --no-progress --arch nosucharch \
	--db "$db" "$mk"
ok "a refused scan creates no database" test ! -e "$db"
refused scan "" "$GFPAUDIT" scan --arch "" --db "$db" "$mk"
refused scan ../x86 "$GFPAUDIT" scan --arch ../x86 --db "$db" "$mk"
# kbuild's ARCH aliases are check's: scan reads arch/ARCH/ directly
refused scan x86_64 "$GFPAUDIT" scan --arch x86_64 --db "$db" "$mk"

mkdir "$TMP/series"
refused validate nosucharch "$GFPAUDIT" validate --db "$db" \
	--arch nosucharch "$TMP/series" "$mk"

refused check nosucharch sh -c "cd '$mk' && '$GFPAUDIT' check --db '$db' \
	-D__KERNEL__ --arch=nosucharch -m64 drivers/misc/tmpbuf.c"
like "$(cat "$TMP/err")" "x86, .*x86_64\)$" "check also lists kbuild's aliases"
ok "a refused check creates no database" test ! -e "$db"

# The list is the table's, and docs/cli.md says the same.
list=$(sed -n "s/.*(known: \(.*\))$/\1/p" "$TMP/err")
ok "docs/cli.md lists the known arches" \
	grep -qF "known: ${list%%, aarch64*}" "$SRC_DIR/docs/cli.md"

# Known ones still run.
ok "scan --arch arm64" "$GFPAUDIT" scan --no-progress --arch arm64 \
	--db "$db" "$mk"
is "$(sql "$db" "SELECT arch FROM runs")" arm64 "the run records the arch"
ok "check --arch=x86_64 (kbuild's ARCH)" sh -c "cd '$mk' && '$GFPAUDIT' \
	check --db '$TMP/c.db' -D__KERNEL__ --arch=x86_64 -m64 \
	drivers/misc/tmpbuf.c"
done_testing
