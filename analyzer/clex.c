// SPDX-License-Identifier: GPL-2.0
/*
 * Raw lexing of a C file, token by token as clang_tokenize() gives them
 * for the single-file tiers (-std=gnu11): every #if branch, comments
 * kept, no macro expansion, #include <x.h> as the punctuation and words
 * it is made of.  What it gives is each token's start, where clang's
 * lexer puts it (at the backslash of a line splice the token's first
 * character follows), and its kind; tu.c makes the rest of a token from
 * those, for clang's tokens and these alike.
 *
 * Why not clang's: clang_tokenize() and a clang_getTokenLocation() per
 * token were a twentieth of a scan, and needed a translation unit.  The
 * rules are the C lexer's (translation phases 1-3 without trigraphs,
 * which gnu11 leaves off) with clang's choices where C leaves them open:
 * a backslash, blanks and a newline are a splice; an unterminated
 * character or string literal is one token up to its line's end, of
 * kind punctuation; an unterminated block comment is no token; an
 * identifier may hold `$` and the C11 Unicode letters (UTF-8 or \u
 * escapes).  The keywords are the words clang 14 makes keywords in
 * gnu11.  tests/tools/lexcheck.c compares the two on every file it is
 * given (t1026; by hand on all of 6.1).
 */
#include "analyzer/clex.h"
#include "analyzer/lexscan.h"
#include "lib/util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * The words clang 14 lexes as keywords with -std=gnu11 on x86-64: C11's,
 * GNU's and those clang accepts in every C dialect (found by lexing each
 * name of clang's TokenKinds.def).
 */
static const char *const keywords[] = {
	"_Accum", "_Alignas", "_Alignof", "_Atomic", "_BitInt", "_Bool",
	"_Complex", "_Decimal128", "_Decimal32", "_Decimal64", "_ExtInt",
	"_Float16", "_Fract", "_Generic", "_Imaginary", "_Nonnull",
	"_Noreturn", "_Null_unspecified", "_Nullable", "_Nullable_result",
	"_Sat", "_Static_assert", "_Thread_local", "__FUNCTION__",
	"__PRETTY_FUNCTION__", "__alignof", "__alignof__", "__asm", "__asm__",
	"__attribute", "__attribute__", "__auto_type", "__bf16",
	"__builtin_COLUMN", "__builtin_FILE", "__builtin_FUNCTION",
	"__builtin_LINE", "__builtin_available", "__builtin_bit_cast",
	"__builtin_choose_expr", "__builtin_convertvector",
	"__builtin_offsetof", "__builtin_omp_required_simd_align",
	"__builtin_types_compatible_p", "__builtin_va_arg", "__cdecl",
	"__complex", "__complex__", "__const", "__const__", "__extension__",
	"__fastcall", "__float128", "__fp16", "__func__", "__ibm128", "__imag",
	"__imag__", "__inline", "__inline__", "__int128", "__label__",
	"__module_private__", "__objc_no", "__objc_yes", "__pascal",
	"__private_extern__", "__real", "__real__", "__regcall", "__restrict",
	"__restrict__", "__signed", "__signed__", "__stdcall", "__thiscall",
	"__thread", "__typeof", "__typeof__", "__vectorcall", "__volatile",
	"__volatile__", "asm", "auto", "break", "case", "char", "const",
	"continue", "default", "do", "double", "else", "enum", "extern",
	"float", "for", "goto", "if", "inline", "int", "long", "register",
	"restrict", "return", "short", "signed", "sizeof", "static", "struct",
	"switch", "typedef", "typeof", "union", "unsigned", "void", "volatile",
	"while",
};

#define MAX_KEYWORD 40
#define NKEYWORDS (sizeof(keywords) / sizeof(keywords[0]))
#define KW_SLOTS 512 /* a power of two, over thrice NKEYWORDS */

/*
 * An open-addressing table of the keywords: every identifier of every
 * parsed file is looked up (a bsearch() was a third of the lexing).
 */
static const char *kw_slot[KW_SLOTS];
static unsigned char kw_len[KW_SLOTS];

static unsigned kw_hash(const char *s, size_t n)
{
	return ((unsigned)n * 31u + (unsigned char)s[0] * 7u +
		(unsigned char)s[n - 1] * 131u +
		(unsigned char)s[n / 2] * 17u) & (KW_SLOTS - 1);
}

__attribute__((constructor)) static void kw_build(void)
{
	size_t k, n;
	unsigned h;

	for (k = 0; k < NKEYWORDS; k++) {
		n = strlen(keywords[k]);
		for (h = kw_hash(keywords[k], n); kw_slot[h];
		     h = (h + 1) & (KW_SLOTS - 1))
			;
		kw_slot[h] = keywords[k];
		kw_len[h] = (unsigned char)n;
	}
}

int clex_is_keyword(const char *s, size_t n)
{
	unsigned h;

	if (n < 2 || n > MAX_KEYWORD)
		return 0;
	for (h = kw_hash(s, n); kw_slot[h]; h = (h + 1) & (KW_SLOTS - 1))
		if (kw_len[h] == n && !memcmp(kw_slot[h], s, n))
			return 1;
	return 0;
}

/* --- characters after line splices ------------------------------------ */

struct lexer {
	const unsigned char *b;
	size_t n;
};

static int hblank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\f' || c == '\v';
}

/* The length of a line splice at I (backslash, blanks, newline), or 0. */
static size_t splice_len(const struct lexer *lx, size_t i)
{
	size_t j = i + 1;

	if (lx->b[i] != '\\')
		return 0;
	while (j < lx->n && hblank(lx->b[j]))
		j++;
	if (j >= lx->n || (lx->b[j] != '\n' && lx->b[j] != '\r'))
		return 0;
	j++;
	/* \r\n or \n\r is one newline */
	if (j < lx->n && (lx->b[j] == '\n' || lx->b[j] == '\r') &&
	    lx->b[j] != lx->b[j - 1])
		j++;
	return j - i;
}

/* I past any line splices: where the next character really is. */
static size_t sk_slow(const struct lexer *lx, size_t i)
{
	size_t s;

	while (i < lx->n && lx->b[i] == '\\' && (s = splice_len(lx, i)))
		i += s;
	return i;
}

static inline size_t sk(const struct lexer *lx, size_t i)
{
	return i < lx->n && lx->b[i] == '\\' ? sk_slow(lx, i) : i;
}

/* The character at I (after splices), 0 at the end. */
static inline unsigned char at(const struct lexer *lx, size_t i)
{
	i = sk(lx, i);
	return i < lx->n ? lx->b[i] : 0;
}

/* The index after the character at I. */
static inline size_t next(const struct lexer *lx, size_t i)
{
	return sk(lx, i) + 1;
}

/* --- Unicode ---------------------------------------------------------- */

struct range {
	uint32_t lo, hi;
};

/* C11 Annex D.1: the characters an identifier may hold. */
static const struct range c11_id[] = {
	{ 0x00A8, 0x00A8 }, { 0x00AA, 0x00AA }, { 0x00AD, 0x00AD },
	{ 0x00AF, 0x00AF }, { 0x00B2, 0x00B5 }, { 0x00B7, 0x00BA },
	{ 0x00BC, 0x00BE }, { 0x00C0, 0x00D6 }, { 0x00D8, 0x00F6 },
	{ 0x00F8, 0x00FF }, { 0x0100, 0x167F }, { 0x1681, 0x180D },
	{ 0x180F, 0x1FFF }, { 0x200B, 0x200D }, { 0x202A, 0x202E },
	{ 0x203F, 0x2040 }, { 0x2054, 0x2054 }, { 0x2060, 0x206F },
	{ 0x2070, 0x218F }, { 0x2460, 0x24FF }, { 0x2776, 0x2793 },
	{ 0x2C00, 0x2DFF }, { 0x2E80, 0x2FFF }, { 0x3004, 0x3007 },
	{ 0x3021, 0x302F }, { 0x3031, 0x303F }, { 0x3040, 0xD7FF },
	{ 0xF900, 0xFD3D }, { 0xFD40, 0xFDCF }, { 0xFDF0, 0xFE44 },
	{ 0xFE47, 0xFFFD }, { 0x10000, 0x1FFFD }, { 0x20000, 0x2FFFD },
	{ 0x30000, 0x3FFFD }, { 0x40000, 0x4FFFD }, { 0x50000, 0x5FFFD },
	{ 0x60000, 0x6FFFD }, { 0x70000, 0x7FFFD }, { 0x80000, 0x8FFFD },
	{ 0x90000, 0x9FFFD }, { 0xA0000, 0xAFFFD }, { 0xB0000, 0xBFFFD },
	{ 0xC0000, 0xCFFFD }, { 0xD0000, 0xDFFFD }, { 0xE0000, 0xEFFFD },
};

/* C11 Annex D.2: those it may not start with. */
static const struct range c11_not_first[] = {
	{ 0x0300, 0x036F }, { 0x1DC0, 0x1DFF }, { 0x20D0, 0x20FF },
	{ 0xFE20, 0xFE2F },
};

static int in_ranges(const struct range *r, size_t n, uint32_t c)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (c >= r[i].lo && c <= r[i].hi)
			return 1;
	return 0;
}

#define IN(tab, c) in_ranges(tab, sizeof(tab) / sizeof(tab[0]), c)

/*
 * A well-formed UTF-8 sequence at I (no splices inside one: clang reads
 * it as raw bytes): its code point and length, or 0.
 */
static size_t utf8_at(const struct lexer *lx, size_t i, uint32_t *cp)
{
	const unsigned char *p = lx->b + i;
	size_t left = lx->n - i, len, k;
	uint32_t c;

	if (p[0] < 0x80)
		return 0;
	if (p[0] >= 0xC2 && p[0] <= 0xDF)
		len = 2, c = p[0] & 0x1F;
	else if (p[0] >= 0xE0 && p[0] <= 0xEF)
		len = 3, c = p[0] & 0x0F;
	else if (p[0] >= 0xF0 && p[0] <= 0xF4)
		len = 4, c = p[0] & 0x07;
	else
		return 0;
	if (left < len)
		return 0;
	for (k = 1; k < len; k++) {
		if ((p[k] & 0xC0) != 0x80)
			return 0;
		c = c << 6 | (p[k] & 0x3F);
	}
	/* overlong forms, surrogates, past U+10FFFF */
	if ((len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
	    (c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF)
		return 0;
	*cp = c;
	return len;
}

/*
 * A universal character name (\uXXXX, \UXXXXXXXX) at I: the index after
 * it, or 0; *CP its code point.
 */
static size_t ucn_len(const struct lexer *lx, size_t i, uint32_t *cp)
{
	size_t j, k, digits;
	uint32_t c = 0;
	unsigned char u;
	int h;

	if (at(lx, i) != '\\')
		return 0;
	j = next(lx, i);
	u = at(lx, j);
	if (u != 'u' && u != 'U')
		return 0;
	digits = u == 'u' ? 4 : 8;
	j = next(lx, j);
	for (k = 0; k < digits; k++) {
		h = hex_digit(at(lx, j));
		if (h < 0)
			return 0;
		c = c << 4 | (uint32_t)h;
		j = next(lx, j);
	}
	*cp = c;
	return j;
}

/* A UCN at I that an identifier may go on with: after it, or 0. */
static size_t ucn_at(const struct lexer *lx, size_t i)
{
	uint32_t c;
	size_t j = ucn_len(lx, i, &c);

	return j && IN(c11_id, c) ? j : 0;
}

/* --- tokens ----------------------------------------------------------- */

static inline int ident_ascii(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '$';
}

/*
 * A UTF-8 or \u character an identifier may hold at I, I itself or past
 * line splices (a UTF-8 one only right at I: clang reads those as raw
 * bytes): the index after it, or 0.
 */
static size_t ident_extra(const struct lexer *lx, size_t i)
{
	size_t j = sk(lx, i), e;
	uint32_t cp;

	if (j >= lx->n)
		return 0;
	if (j == i && lx->b[j] >= 0x80 && (e = utf8_at(lx, j, &cp)) &&
	    IN(c11_id, cp))
		return j + e;
	if (lx->b[j] == '\\')
		return ucn_at(lx, j);
	return 0;
}

/* The index after the identifier characters from I on. */
static size_t ident_rest(const struct lexer *lx, size_t i)
{
	size_t j, e;

	for (;;) {
		while (i < lx->n && ident_ascii(lx->b[i]))
			i++;
		if (i >= lx->n || (lx->b[i] != '\\' && lx->b[i] < 0x80))
			return i;
		j = sk(lx, i);
		if (j < lx->n && ident_ascii(lx->b[j]))
			i = j + 1;
		else if ((e = ident_extra(lx, i)))
			i = e;
		else
			return i;
	}
}

/* A pp-number from I (its first character already taken). */
static size_t number_rest(const struct lexer *lx, size_t i)
{
	unsigned char prev = 0, c;
	size_t e;

	for (;;) {
		c = at(lx, i);
		if ((ident_ascii(c) && c != '$') || c == '.') {
			prev = c;
			i = next(lx, i);
		} else if ((c == '+' || c == '-') &&
			   (prev == 'e' || prev == 'E' || prev == 'p' ||
			    prev == 'P')) {
			prev = c;
			i = next(lx, i);
		} else if ((e = ident_extra(lx, i))) {
			/* clang takes these into a pp-number as well */
			prev = 0;
			i = e;
		} else {
			return i;
		}
	}
}

/*
 * A character constant or string literal whose opening QUOTE is before
 * I: the index after it, *KIND literal; unterminated, up to its line's
 * end and *KIND punctuation (clang's unknown token); `''` is one too.
 */
static size_t quoted(const struct lexer *lx, size_t i, unsigned char quote,
		     unsigned char *kind)
{
	unsigned char c;

	*kind = TK_LITERAL;
	if (quote == '\'' && at(lx, i) == '\'') {
		*kind = TK_PUNCT;
		return next(lx, i);
	}
	for (;;) {
		size_t j = i;

		/* the common case: plain characters */
		while (j < lx->n && lx->b[j] != quote && lx->b[j] != '\\' &&
		       lx->b[j] != '\n' && lx->b[j] != '\r')
			j++;
		j = sk(lx, j);
		if (j >= lx->n) {
			*kind = TK_PUNCT;
			return j;
		}
		c = lx->b[j];
		i = j + 1;
		if (c == quote)
			return i;
		if (c == '\\') {
			j = sk(lx, i);
			if (j >= lx->n) {
				*kind = TK_PUNCT;
				return j;
			}
			c = lx->b[j];
			i = j + 1;
		}
		if (c == '\n' || c == '\r') {
			*kind = TK_PUNCT;
			return i - 1;
		}
	}
}

/* Past a block comment whose "/" "*" are before I; the end if unclosed. */
static size_t block_comment(const struct lexer *lx, size_t i, int *closed)
{
	unsigned char prev = 0, c;

	for (;;) {
		size_t j = i;

		if (j < lx->n && lx->b[j] != '\\' && lx->b[j] != '/') {
			/* up to the next '/' (or splice), the one before it */
			const unsigned char *q = memchr(lx->b + j, '/', lx->n - j);
			size_t end = q ? (size_t)(q - lx->b) : lx->n, k;

			for (k = j; k < end && lx->b[k] != '\\'; k++)
				;
			if (k > j) {
				prev = lx->b[k - 1];
				j = k;
			}
		}
		j = sk(lx, j);
		if (j >= lx->n) {
			*closed = 0;
			return lx->n;
		}
		c = lx->b[j];
		i = j + 1;
		if (c == '/' && prev == '*') {
			*closed = 1;
			return i;
		}
		prev = c;
	}
}

/* Past a line comment: up to (not over) its newline. */
static size_t line_comment(const struct lexer *lx, size_t i)
{
	for (;;) {
		size_t j = i;

		while (j < lx->n && lx->b[j] != '\n' && lx->b[j] != '\r' &&
		       lx->b[j] != '\\')
			j++;
		j = sk(lx, j);
		if (j >= lx->n || lx->b[j] == '\n' || lx->b[j] == '\r')
			return j;
		i = j + 1;
	}
}

/*
 * Longest-match punctuation after C, whose next character is at I:
 * the index after the token.
 */
static size_t punct(const struct lexer *lx, unsigned char c, size_t i)
{
	unsigned char d = at(lx, i), e;
	size_t i2 = next(lx, i);

	switch (c) {
	case '<':
		if (d == '<')
			return at(lx, i2) == '=' ? next(lx, i2) : i2;
		return d == '=' || d == ':' || d == '%' ? i2 : i;
	case '>':
		if (d == '>')
			return at(lx, i2) == '=' ? next(lx, i2) : i2;
		return d == '=' ? i2 : i;
	case '-':
		return d == '-' || d == '>' || d == '=' ? i2 : i;
	case '+':
		return d == '+' || d == '=' ? i2 : i;
	case '&':
		return d == '&' || d == '=' ? i2 : i;
	case '|':
		return d == '|' || d == '=' ? i2 : i;
	case '*': case '/': case '^': case '=': case '!':
		return d == '=' ? i2 : i;
	case '#':
		return d == '#' ? i2 : i;
	case ':':
		return d == '>' ? i2 : i;
	case '%':
		if (d == ':') {
			/* %:%: is ##, %: is # */
			e = at(lx, i2);
			if (e == '%' && at(lx, next(lx, i2)) == ':')
				return next(lx, next(lx, i2));
			return i2;
		}
		return d == '=' || d == '>' ? i2 : i;
	case '.':
		return d == '.' && at(lx, i2) == '.' ? next(lx, i2) : i;
	default:
		return i;
	}
}

static void push(struct clex_toks *t, size_t start, unsigned char kind)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 1024;
		t->start = xrealloc(t->start, t->cap * sizeof(*t->start));
		t->kind = xrealloc(t->kind, t->cap * sizeof(*t->kind));
	}
	t->start[t->n] = (unsigned)start;
	t->kind[t->n] = kind;
	t->n++;
}

/* An identifier from START to END: a keyword?  (Spelled without splices.) */
static unsigned char word_kind(const struct lexer *lx, size_t start,
			       size_t end)
{
	char w[MAX_KEYWORD + 1];
	size_t n = 0, i = start;

	if (end - start > 4 * MAX_KEYWORD)
		return TK_IDENT;
	while (i < end) {
		i = sk(lx, i);
		if (i >= end)
			break;
		if (n == MAX_KEYWORD)
			return TK_IDENT;
		w[n++] = (char)lx->b[i++];
	}
	return clex_is_keyword(w, n) ? TK_KEYWORD : TK_IDENT;
}

void clex_tokens(const char *buf, size_t len, struct clex_toks *t)
{
	struct lexer lx = { (const unsigned char *)buf, len };
	size_t i = 0, j, e;
	unsigned char c, d, kind;
	uint32_t cp;
	int closed;

	t->n = 0;
	while (i < len) {
		size_t start;

		while (i < len && (lx.b[i] == ' ' || lx.b[i] == '\t' ||
				   lx.b[i] == '\n' || lx.b[i] == '\r'))
			i++;
		start = i;
		d = 0;
		j = sk(&lx, i);
		if (j >= len)
			break;
		c = lx.b[j];
		i = j + 1;
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
		    c == '\f' || c == '\v' || c == 0)
			continue;
		if (c == '/' && (d = at(&lx, i)) == '/') {
			i = line_comment(&lx, next(&lx, i));
			push(t, start, TK_COMMENT);
			continue;
		}
		if (c == '/' && d == '*') {
			i = block_comment(&lx, next(&lx, i), &closed);
			if (closed)
				push(t, start, TK_COMMENT);
			continue;
		}
		/* L"", L'', u"", u'', U"", U'', u8"" (C11) */
		if (c == 'L' || c == 'u' || c == 'U') {
			size_t q = i;

			d = at(&lx, q);
			if (c == 'u' && d == '8' && at(&lx, next(&lx, q)) == '"') {
				q = next(&lx, q);
				d = '"';
			}
			if (d == '"' || d == '\'') {
				i = quoted(&lx, next(&lx, q), d, &kind);
				push(t, start, kind);
				continue;
			}
		}
		if (ident_ascii(c) && !(c >= '0' && c <= '9')) {
			i = ident_rest(&lx, i);
			push(t, start, word_kind(&lx, start, i));
			continue;
		}
		if ((c >= '0' && c <= '9') ||
		    (c == '.' && (d = at(&lx, i)) >= '0' && d <= '9')) {
			i = number_rest(&lx, i);
			push(t, start, TK_LITERAL);
			continue;
		}
		if (c == '"' || c == '\'') {
			i = quoted(&lx, i, c, &kind);
			push(t, start, kind);
			continue;
		}
		if (c >= 0x80) {
			/* raw lexing makes even U+00A0 a token */
			e = utf8_at(&lx, j, &cp);
			if (e && IN(c11_id, cp) && !IN(c11_not_first, cp)) {
				i = ident_rest(&lx, j + e);
				push(t, start, TK_IDENT);
				continue;
			}
			/* another code point, or a byte that starts none */
			i = j + (e ? e : 1);
			push(t, start, TK_PUNCT);
			continue;
		}
		/* a UCN: a name, or one token of its own (\u0041 too) */
		if (c == '\\' && (e = ucn_len(&lx, j, &cp))) {
			if (IN(c11_id, cp) && !IN(c11_not_first, cp)) {
				i = ident_rest(&lx, e);
				push(t, start, TK_IDENT);
			} else {
				i = e;
				push(t, start, TK_PUNCT);
			}
			continue;
		}
		i = punct(&lx, c, i);
		push(t, start, TK_PUNCT);
	}
	/* start[n]: the end, where a token's extent is cut (clex.h) */
	push(t, len, TK_PUNCT);
	t->n--;
}

void clex_free(struct clex_toks *t)
{
	free(t->start);
	free(t->kind);
	memset(t, 0, sizeof(*t));
}
