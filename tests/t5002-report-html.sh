#!/bin/sh
# gfpaudit report --format html: one self-contained page, everything
# escaped, the tables and inline SVG charts there, checked with Python's
# HTML parser (not with grep alone).
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/lib/report-fixture.sh"

db=$TMP/r.db
report_fixture "$db" || { echo "Bail out! fixture"; exit 1; }
ok "html report" "$GFPAUDIT" report --db "$db" --format html -o "$TMP/r.html"

cat >"$TMP/check.py" <<'PY'
import sys
from html.parser import HTMLParser

class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.ids, self.text, self.ext = {}, set(), [], []
        self.stack = []
    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        for k in ("src", "href", "action", "data"):
            v = a.get(k) or ""
            if v and not v.startswith("#"):
                self.ext.append(v)
        if tag not in ("meta", "br", "rect", "line", "polyline"):
            self.stack.append(tag)
    def handle_endtag(self, tag):
        if tag in ("meta", "br", "rect", "line", "polyline"):
            return
        if not self.stack or self.stack.pop() != tag:
            print("unbalanced </%s>" % tag)
            sys.exit(1)
    def handle_data(self, d):
        self.text.append(d)

p = P()
p.feed(open(sys.argv[1], encoding="utf-8").read())
t = "".join(p.text)
for k in ("script", "svg", "table", "polyline", "rect", "iframe", "img", "link"):
    print(k, p.tags.get(k, 0))
print("external", len(p.ext))
print("ids", " ".join(sorted(i for i in p.ids if i.endswith("-table") or i.startswith("chart-"))))
print("escaped-script-text", int('<script>alert("x")</script>' in t))
print("unicode", int("ünïcode" in t))
print("open", int(not p.stack))
PY
out=$(python3 "$TMP/check.py" "$TMP/r.html")
is "$?" 0 "the page parses with balanced tags"
like "$out" "script 0" "no script element (the <script> in a message is escaped)"
like "$out" "escaped-script-text 1" "that message is shown as text"
like "$out" "external 0" "no external reference (src/href)"
like "$out" "iframe 0" "no iframe"
like "$out" "img 0" "no img"
like "$out" "link 0" "no link element"
like "$out" "svg 3" "three charts: subsystems, lifetimes, one fragmentation chart"
like "$out" "polyline 2" "two fragmentation curves (as-is, patched)"
like "$out" "unicode 1" "UTF-8 text survives"
like "$out" "open 1" "every element is closed"
for id in summary-table parse-modes-table subsystems-table lifetime-table \
	context-table rules-table findings-table patches-table \
	validations-table impact-table policies-table chart-subsystems chart-lifetimes \
	chart-curve-0; do
	like "$out" "ids .*$id" "element #$id"
done
like "$(cat "$TMP/r.html")" "Content-Security-Policy\" content=\"default-src 'none'" \
	"a CSP forbids any fetch"
n=$(grep -c '<g class="bar">' "$TMP/r.html")
is "$n" 6 "one bar per subsystem (3) and per lifetime class (3)"
like "$(cat "$TMP/r.html")" '<title>PROC FILESYSTEM: 3</title>' \
	"bars carry their value"
like "$(cat "$TMP/r.html")" 'drivers/x/&lt;b&gt;.c:1:1' "paths are escaped"
# An empty database still gives a valid page, with no charts of curves.
"$TOOLS/mkdb" "$TMP/e.db"
ok "empty database" "$GFPAUDIT" report --db "$TMP/e.db" --format html -o "$TMP/e.html"
out=$(python3 "$TMP/check.py" "$TMP/e.html")
like "$out" "polyline 0" "no curves without simulation"
like "$out" "open 1" "the empty page is well formed"
done_testing
