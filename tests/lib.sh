# Shared helpers for the numbered shell tests (TAP output, run by prove).
#
#   . "$(dirname "$0")/lib.sh"
#   plan 3                      (or: done_testing at the end)
#   ok "desc" cmd args...       passes when cmd exits 0
#   is "$got" "$want" "desc"
#   exit_is N "desc" cmd...     passes when cmd exits with status N
#   skip_all "reason"
#   skip N "reason"             N skipped tests, where the rest still run

set -u
TESTS_DIR=$(cd "$(dirname "$0")" && pwd)
SRC_DIR=$(cd "$TESTS_DIR/.." && pwd)
GFPAUDIT=${GFPAUDIT:-$SRC_DIR/build/gfpaudit}
MINIKERNEL=$SRC_DIR/examples/minikernel
# Test-only helper programs (tests/tools/*.c), built next to the binary.
TOOLS=${TOOLS:-$(dirname "$GFPAUDIT")/tests/tools}
# 1 under `make check SANITIZE=1`: real-tree tests may take a smaller
# (still deterministic) sample there, ASan+UBSan being several times slower.
GFPAUDIT_SANITIZED=${GFPAUDIT_SANITIZED:-0}
_tap_n=0
_tap_failed=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gfpaudit-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

plan() { echo "1..$1"; }
done_testing() { echo "1..$_tap_n"; [ "$_tap_failed" = 0 ]; exit $?; }
skip_all() { echo "1..0 # SKIP $*"; exit 0; }
skip() {
	_n=$1; shift
	while [ "$_n" -gt 0 ]; do
		_tap_n=$((_tap_n + 1))
		echo "ok $_tap_n # SKIP $*"
		_n=$((_n - 1))
	done
}

_result() {
	_tap_n=$((_tap_n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $_tap_n - $2"
	else
		echo "not ok $_tap_n - $2"
		_tap_failed=$((_tap_failed + 1))
	fi
}

ok() {
	_d=$1; shift
	"$@" >"$TMP/.out" 2>&1
	_rc=$?
	[ $_rc = 0 ] || sed 's/^/# /' "$TMP/.out" | head -20
	_result $_rc "$_d"
}

is() {
	if [ "$1" = "$2" ]; then _result 0 "$3"; else
		printf '# got:      %s\n# expected: %s\n' "$1" "$2" |
			head -40
		_result 1 "$3"
	fi
}

like() {
	if printf '%s' "$1" | grep -qE -- "$2"; then _result 0 "$3"; else
		printf '# got: %s\n# expected to match: %s\n' "$1" "$2" |
			head -40
		_result 1 "$3"
	fi
}

exit_is() {
	_want=$1 _d=$2; shift 2
	"$@" >"$TMP/.out" 2>&1
	_rc=$?
	[ "$_rc" = "$_want" ] || { echo "# exit $_rc, wanted $_want";
		sed 's/^/# /' "$TMP/.out" | head -20; }
	[ "$_rc" = "$_want" ]
	_result $? "$_d"
}

# sqlite3 one-liner on a database, tab-separated, no header.
sql() { sqlite3 -batch -noheader -separator '	' "$1" "$2"; }

# The real 6.1 tree (Debian's linux-source-6.1), extracted once into a
# cache directory and reused.  The pristine copy must never be modified:
# tests that change a tree take their own copy with linux61_copy.
GFPAUDIT_CACHE=${GFPAUDIT_CACHE:-/var/cache/gfpaudit}
LINUX61_TAR=/usr/src/linux-source-6.1.tar.xz

linux61_pristine() {
	_dir=$GFPAUDIT_CACHE/linux-source-6.1
	[ -f "$_dir/Makefile" ] && { echo "$_dir"; return 0; }
	[ -f "$LINUX61_TAR" ] || return 1
	mkdir -p "$GFPAUDIT_CACHE" || return 1
	(
		flock 9
		if [ ! -f "$_dir/Makefile" ]; then
			tar -C "$GFPAUDIT_CACHE" -xJf "$LINUX61_TAR" >&2 ||
				exit 1
		fi
	) 9>"$GFPAUDIT_CACHE/.extract.lock" || return 1
	echo "$_dir"
}

# linux61_copy NAME [SETUP_CMD...]: a private copy of the 6.1 tree in the
# cache, made once (then SETUP_CMD run in it) and reused while its stamp
# exists.  Prints the path.
linux61_copy() {
	_name=$1; shift
	_src=$(linux61_pristine) || return 1
	_dst=$GFPAUDIT_CACHE/$_name
	(
		flock 9
		if [ ! -f "$_dst/.gfpaudit-ready" ]; then
			rm -rf "$_dst"
			cp -a "$_src" "$_dst" || exit 1
			if [ $# -gt 0 ]; then
				(cd "$_dst" && "$@") >&2 || exit 1
			fi
			touch "$_dst/.gfpaudit-ready"
		fi
	) 9>"$GFPAUDIT_CACHE/.$_name.lock" || return 1
	echo "$_dst"
}

# Skip the whole test while a subcommand is still a stub.
require_cmd() {
	"$GFPAUDIT" "$1" --help 2>&1 | grep -q 'not built yet' &&
		skip_all "gfpaudit $1 not built yet"
	return 0
}
