#!/bin/sh
# analyzer/clex.c against clang_tokenize(): the same tokens (offset,
# length, kind) on hand-made corner cases, on random files made of the
# lexer's hard pieces, on every word clang's TokenKinds.def names (the
# keyword table against the installed libclang), and on a fixed sample of
# the real 6.1 tree when it is installed (all of it was checked by hand:
# docs/performance.md).
. "$(dirname "$0")/lib.sh"

LEXCHECK=$TOOLS/lexcheck
[ -x "$LEXCHECK" ] || skip_all "tests/tools/lexcheck is not built (make unit)"
dir=$TMP/lex
mkdir -p "$dir"

# Corner cases: splices with blanks, CR and CRLF, in and between tokens;
# unterminated literals and comments; prefixes; pp-numbers; digraphs;
# UTF-8 and \u names; NBSP and stray bytes; a file ending in a splice.
python3 - "$dir" <<'PY'
import sys, os
d = sys.argv[1]
files = {
 "splice.c": b"int a\\\n  b = 1;\nx = y \\  \nz; /* c *\\\n/ after\nfoo\\\n\\\nbar\n\\\nlead\na \\\x0b\nb\n",
 "literal.c": b"char c = 'ab\n\"open\n'' L'x' u'y' U\"z\" u8\"w\" u8'q' u\"\" Lfoo '\\\\' \"\\\\\" '\\'' \"x\\\ny\"\n",
 "number.c": b"1e+5 0x1p-3 1.e 1..2 .5e+ 1e+e+5 0x1e+1 1.0f 0x12\\\n34 1\xc3\xa9 1\\u00e9\n",
 "punct.c": b"... .. a->b <<= >>= <: :> <% %> %: %:%: %:% ## #@ @end $x a$b ..\\\n. <\\\n<= `\n",
 "comment.c": b"// line \\\ncontinued\n/\\\n* blk *\\\n/ e\n#include <linux/slab.h>\n#error don't\nend /* open",
 "newline.c": b"a\r\nb \\\r\nc\rd\\\n\re \\ \t\nf\\\r\n\r\ng",
 "unicode.c": "caf\u00e9 \u00e9t\u00e9 \u200b \u00a0 x \u20ac y\u0301 \u0301z \u3000w".encode() + b" \xff \xc3 \\u00e9x a\\u00e9 \\u0041 \\U0001F600 e\\\n\xc3\xa9 \\",
}
for n, b in files.items():
    open(os.path.join(d, n), "wb").write(b)
PY
ok "corner cases: clex's tokens are clang's" \
	sh -c "cd '$dir' && '$LEXCHECK' '$dir' *.c >'$TMP/corner.out'"
sed 's/^/# /' "$TMP/corner.out"

# Random files of the pieces above, fixed seed.
mkdir -p "$TMP/fuzz"
python3 - "$TMP/fuzz" <<'PY'
import random, os, sys
frags = [b"a", b"L", b"u", b"U", b"u8", b"8", b"e", b"E", b"p", b"1", b"0x",
         b".", b"+", b"-", b"'", b'"', b"\\", b"\\\n", b"\\ \n", b"\\\r\n",
         b"\\\n\r", b"\n", b"\r", b" ", b"\t", b"\v", b"\f", b"/", b"*", b"<",
         b">", b"=", b"%", b":", b"#", b"&", b"|", b"^", b"!", b"?", b"@",
         b"$", b"`", b"_", b"(", b")", b"{", b"}", b";", b",", b"\x01",
         b"\\u00e9", b"\\u0041", b"\\U0001F600", b"\\u00", "\u00e9".encode(),
         "\u0301".encode(), "\u200b".encode(), "\u00a0".encode(), b"\xff",
         b"\xc3", b"\xed\xa0\x80", b"restrict", b"int", b"__int128", b"//",
         b"/*", b"*/"]
rng = random.Random(26)
for k in range(1500):
    n = rng.randint(1, 100)
    with open(os.path.join(sys.argv[1], "f%04d.c" % k), "wb") as f:
        f.write(b"".join(rng.choice(frags) for _ in range(n)))
PY
ok "1500 random files: clex's tokens are clang's" \
	sh -c "cd '$TMP/fuzz' && '$LEXCHECK' '$TMP/fuzz' *.c >'$TMP/fuzz.out'"
tail -n 1 "$TMP/fuzz.out" | sed 's/^/# /'

# Every word of clang's token table, and each with a letter more or less:
# a keyword clex does not know (or a word it takes for one) shows here.
defs=$(llvm-config-14 --includedir 2>/dev/null)/clang/Basic/TokenKinds.def
if [ -f "$defs" ]; then
	grep -oE '\b[A-Za-z_][A-Za-z0-9_]*\b' "$defs" | sort -u |
		awk '{ print $0; print $0 "x"; print substr($0, 2) }' >"$dir/words.txt"
	cp "$dir/words.txt" "$dir/words.c"
	ok "every word of TokenKinds.def: clex's keywords are clang's" \
		"$LEXCHECK" "$dir" words.c
else
	skip 1 "clang's TokenKinds.def is not installed"
fi

# The real tree: every 40th .c and .h file.
if [ "$GFPAUDIT_SANITIZED" != 1 ] &&
   { [ -f "$LINUX61_TAR" ] || [ -d "$GFPAUDIT_CACHE/linux-source-6.1" ]; } &&
   tree=$(linux61_pristine); then
	(cd "$tree" && find . -name '*.[ch]' | sed 's|^\./||' | sort |
		awk 'NR % 40 == 0') >"$TMP/sample.txt"
	ok "6.1, $(wc -l <"$TMP/sample.txt" | tr -d ' ') files: clex's tokens are clang's" \
		sh -c "'$LEXCHECK' '$tree' <'$TMP/sample.txt' >'$TMP/tree.out'"
	sed 's/^/# /' "$TMP/tree.out" | tail -n 5
else
	skip 1 "linux-source-6.1 is not installed (or a sanitized run)"
fi
done_testing
