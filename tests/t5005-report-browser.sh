#!/bin/sh
# The HTML report in a real browser: Debian's chromium, headless, dumps
# the DOM it built (charts and tables must be in it) and a screenshot.
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib/report-fixture.sh"

have() { command -v "$1" >/dev/null 2>&1; }
CHROMIUM=
for c in chromium chromium-browser; do have $c && { CHROMIUM=$c; break; }; done
[ -n "$CHROMIUM" ] || skip_all "chromium is not installed (apt-get install chromium)"

db=$TMP/r.db
report_fixture "$db" || { echo "Bail out! fixture"; exit 1; }
"$GFPAUDIT" report --db "$db" --format html -o "$TMP/r.html" || exit 1

# No network, no first-run or background work; the profile is ours.
chrome() {
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
		--disable-quic --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync \
		--user-data-dir="$TMP/prof" "$@" 2>>"$TMP/chromium.log"
}
chrome --dump-dom "file://$TMP/r.html" >"$TMP/dom.html"
is "$?" 0 "chromium --dump-dom runs"
dom=$(cat "$TMP/dom.html")
is "$(grep -o '<svg' "$TMP/dom.html" | wc -l)" 3 "the DOM has the 3 svg charts"
like "$dom" '<svg[^>]*id="chart-subsystems"' "subsystem bars chart"
like "$dom" '<svg[^>]*id="chart-lifetimes"' "lifetime chart"
like "$dom" '<svg[^>]*id="chart-curve-0"' "fragmentation curve chart"
is "$(grep -o '<polyline' "$TMP/dom.html" | wc -l)" 2 "as-is and patched curves"
is "$(grep -o '<table' "$TMP/dom.html" | wc -l)" 12 "all 12 tables"
like "$dom" '<table id="findings-table">' "findings table"
like "$dom" '<td class="loc">fs/proc/base.c:30:2</td>' "a finding's location cell"
like "$dom" 'alert\(&quot;x&quot;\)|alert\("x"\)' "the <script> message is text"
is "$(grep -o '<script' "$TMP/dom.html" | wc -l)" 0 "no script element was created"

chrome --screenshot="$TMP/x.png" --window-size=1200,2000 "file://$TMP/r.html" >/dev/null
ok "chromium --screenshot writes the PNG" test -s "$TMP/x.png"
magic=$(head -c 8 "$TMP/x.png" | od -An -tx1 | tr -d ' \n')
is "$magic" "89504e470d0a1a0a" "it is a PNG"
size=$(stat -c %s "$TMP/x.png")
ok "the screenshot is not trivial ($size bytes)" test "$size" -gt 30000
# Width and height from the IHDR chunk.
dims=$(python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); print("%dx%d" % struct.unpack(">II", d[16:24]))' "$TMP/x.png")
is "$dims" "1200x2000" "the screenshot has the window size"
done_testing
