// SPDX-License-Identifier: GPL-2.0
/*
 * libclang parsing at three depths.  Every depth tokenizes the whole file
 * with clang_tokenize (raw lexing: all #if branches, comments kept), so
 * discovery never depends on the parse succeeding:
 *   lexical  SingleFileParse | SkipFunctionBodies: the cheapest TU that
 *            clang_tokenize accepts;
 *   single   SingleFileParse | RetainExcludedConditionalBlocks: function
 *            bodies are parsed (no types: includes are skipped);
 *   full     the real translation unit with the tree's compile flags.
 */
#include "analyzer/tu.h"
#include "analyzer/clex.h"
#include "lib/karch.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glob.h>
#include <unistd.h>

#define SHIM_DIR "/gfpaudit-shim"
/*
 * The main file's name of every single-file parse: where a quoted
 * #include is looked up, so that it is "not found" for every file alike.
 */
#define SINGLE_MAIN SHIM_DIR "/main.c"
#define MAX_REPARSES 256

/*
 * For unconfigured trees: an empty autoconf.h where kbuild would have
 * generated one, and __KERNEL__ as every kernel compile defines it.
 */
static const char shim_h[] =
	"/* gfpaudit: stand-in for an unconfigured tree */\n"
	"#define __KERNEL__ 1\n"
	"#define KBUILD_MODNAME \"gfpaudit\"\n"
	"#define KBUILD_BASENAME \"gfpaudit\"\n";

/*
 * The single-file tiers skip #include, so they also get the kernel's
 * common types and annotations as macros (plus, per scan, the tree's gfp,
 * slab and errno constants): a call whose arguments are all known this
 * way keeps its CallExpr in the AST.  -fno-spell-checking: without the
 * headers most identifiers are undeclared, and clang looked each one up
 * for a typo correction (8% of the parse time on fs/ and drivers/net,
 * with the same rows: an error recovers the same way without a guess).
 * -ferror-limit=8: such a parse has some 300 errors, each formatted and
 * stored, 14% of its instructions; past the limit clang recovers the
 * same way and builds the same AST (every site's row identical on 6.1),
 * it only keeps no more diagnostics.  -undef: clang's own predefined
 * macros (__GNUC__, __x86_64__, __SIZEOF_LONG__ and some 350 more) were
 * defined anew at each re-parse, a third of what re-parsing an empty file
 * costs; a single-file parse takes every branch of an #if on a name it
 * does not know anyway.  Those that code uses as values are defined
 * below; with them a whole 6.1 scan is the same as with all of clang's,
 * table by table.
 */
static const char *const base_args[] = {
	"-xc", "-std=gnu11", "-w", "-ferror-limit=8", "-fno-spell-checking", "-undef",
	"-nostdinc", "-D__KERNEL__",
	"-Dgfp_t=unsigned int", "-Dslab_flags_t=unsigned int",
	"-Dsize_t=unsigned long", "-Dssize_t=long", "-Dloff_t=long long",
	"-Dbool=_Bool", "-Dtrue=1", "-Dfalse=0", "-DNULL=((void *)0)",
	"-Du8=unsigned char", "-Du16=unsigned short", "-Du32=unsigned int",
	"-Du64=unsigned long long", "-Ds8=signed char", "-Ds16=short",
	"-Ds32=int", "-Ds64=long long", "-Ddma_addr_t=unsigned long long",
	"-Dphys_addr_t=unsigned long long", "-Dnuma_node_id()=0",
	"-DPAGE_SHIFT=12", "-DPAGE_SIZE=4096UL", "-D__user=", "-D__iomem=",
	"-D__rcu=", "-D__percpu=", "-D__force=", "-D__init=", "-D__exit=",
	"-D__initdata=", "-D__read_mostly=", "-D__must_check=",
	"-D__always_inline=inline", "-D__maybe_unused=", "-Dnoinline=",
	"-D__cold=", "-Dlikely(x)=(x)", "-Dunlikely(x)=(x)",
	"-Dsizeof(...)=8UL", "-Doffsetof(...)=0UL",
	"-Dcontainer_of(p, t, m)=((t *)(p))",
	"-Dstruct_size(...)=8UL", "-Dflex_array_size(...)=8UL",
	"-Darray_size(...)=8UL", "-Darray3_size(...)=8UL",
	"-Dsizeof_field(...)=8UL",
	"-DWARN_ON(x)=(x)", "-DWARN_ON_ONCE(x)=(x)", "-DWARN(x, ...)=(x)",
	"-DWARN_ONCE(x, ...)=(x)",
	/*
	 * The kernel's other common typedefs: a declaration of an unknown
	 * type name is dropped, and every statement that names the variable
	 * with it.  Scalars as what they are; the lock and counter structures
	 * as int, which only their address is taken of.
	 */
	"-Dushort=unsigned short", "-Duint=unsigned int",
	"-Dulong=unsigned long", "-Du_char=unsigned char",
	"-Du_short=unsigned short", "-Du_int=unsigned int",
	"-Du_long=unsigned long", "-Duint8_t=unsigned char",
	"-Duint16_t=unsigned short", "-Duint32_t=unsigned int",
	"-Duint64_t=unsigned long long", "-Dint8_t=signed char",
	"-Dint16_t=short", "-Dint32_t=int", "-Dint64_t=long long",
	"-Duintptr_t=unsigned long", "-D__u8=unsigned char",
	"-D__u16=unsigned short", "-D__u32=unsigned int",
	"-D__u64=unsigned long long", "-D__s8=signed char", "-D__s16=short",
	"-D__s32=int", "-D__s64=long long", "-D__le16=unsigned short",
	"-D__le32=unsigned int", "-D__le64=unsigned long long",
	"-D__be16=unsigned short", "-D__be32=unsigned int",
	"-D__be64=unsigned long long", "-D__sum16=unsigned short",
	"-D__wsum=unsigned int", "-Dirqreturn_t=int", "-Dnetdev_tx_t=int",
	"-Dsector_t=unsigned long long", "-Dfmode_t=unsigned int",
	"-Dumode_t=unsigned short", "-D__poll_t=unsigned int",
	"-Ddma_cookie_t=int", "-Dnetdev_features_t=unsigned long long",
	"-Dktime_t=long long", "-Dpci_ers_result_t=unsigned int",
	"-Dacpi_status=unsigned int", "-Dspinlock_t=int", "-Datomic_t=int",
	"-Dwait_queue_head_t=int", "-D__weak=",
	/*
	 * The few of clang's predefined macros (see -undef above) that code
	 * uses as values: a loop bound of `n * __CHAR_BIT__` with the name
	 * undeclared drops the loop from the AST.  x86-64's values.
	 */
	"-D__CHAR_BIT__=8", "-D__SIZEOF_SHORT__=2", "-D__SIZEOF_INT__=4",
	"-D__SIZEOF_LONG__=8", "-D__SIZEOF_LONG_LONG__=8",
	"-D__SIZEOF_POINTER__=8", "-D__SIZEOF_SIZE_T__=8",
	"-D__LONG_WIDTH__=64", "-D__INT_MAX__=2147483647",
	"-D__LONG_MAX__=9223372036854775807L", "-D__ATOMIC_RELAXED=0",
	"-D__ATOMIC_CONSUME=1", "-D__ATOMIC_ACQUIRE=2", "-D__ATOMIC_RELEASE=3",
	"-D__ATOMIC_ACQ_REL=4", "-D__ATOMIC_SEQ_CST=5",
};
#define NBASE ((int)(sizeof(base_args) / sizeof(base_args[0])))

static unsigned char map_kind(CXTokenKind k)
{
	switch (k) {
	case CXToken_Punctuation: return TK_PUNCT;
	case CXToken_Keyword: return TK_KEYWORD;
	case CXToken_Identifier: return TK_IDENT;
	case CXToken_Literal: return TK_LITERAL;
	default: return TK_COMMENT;
	}
}

static int is_gap_byte(const char *buf, size_t at)
{
	char c = buf[at];

	return c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	       c == '\f' || c == '\v';
}

/*
 * Where the token starting at START ends, given where the next one starts
 * (NEXT, or the file's end): between two raw tokens there is only
 * whitespace and line splices (comments are tokens), so it is NEXT with
 * those trimmed off; a // comment ends at its line's end.  This is what
 * clang_getTokenExtent() gives, which lexes every token again (a
 * twentieth of a scan): checked equal for every token of 6.1.
 */
static unsigned token_end(const char *buf, unsigned start, unsigned next)
{
	unsigned e = next;

	/* A // comment runs to its line's end, trailing blanks included. */
	if (next - start >= 2 && buf[start] == '/' && buf[start + 1] == '/') {
		for (e = start + 2; e < next; e++)
			if ((buf[e] == '\n' || buf[e] == '\r') &&
			    buf[e - 1] != '\\' &&
			    !(buf[e] == '\n' && buf[e - 1] == '\r' &&
			      buf[e - 2] == '\\'))
				return e;
		return next;
	}

	while (e > start + 1) {
		if (is_gap_byte(buf, e - 1))
			e--;
		else if (buf[e - 1] == '\\' && e < next &&
			 (buf[e] == '\n' || buf[e] == '\r'))
			e--; /* a line splice */
		else
			break;
	}
	return e;
}

/* The length of a line splice at A that a token's text follows, or 0. */
static unsigned splice_at(const char *buf, unsigned a, unsigned b)
{
	unsigned n;

	if (b - a < 3 || buf[a] != '\\')
		return 0;
	n = buf[a + 1] == '\r' ? 3 : 2;
	return b - a > n && buf[a + n - 1] == '\n' ? n : 0;
}

/*
 * LF's tokens from their starts (START[N] is the file's length) and
 * kinds, from clang_tokenize() or clex_tokens() alike.
 */
static void fill_tokens(struct lexfile *lf, const unsigned *start,
			const unsigned char *kind, size_t n)
{
	size_t i;
	unsigned sp;

	/*
	 * Each token written whole and only the unused tail zeroed: a
	 * calloc() of the array was half a percent of a scan.
	 */
	lf->toks = xmalloc((n ? n : 1) * sizeof(*lf->toks));
	for (i = 0; i < n; i++) {
		unsigned a = start[i], b;

		if (a >= lf->len || start[i + 1] < a)
			continue;
		b = token_end(lf->buf, a, start[i + 1]);
		/*
		 * A token right after a line splice starts at the backslash
		 * (a macro body's `{` at a line's start): its text is what
		 * follows the splice.
		 */
		while ((sp = splice_at(lf->buf, a, b)))
			a += sp;
		lf->toks[lf->ntoks++] = (struct tok){
			.off = a,
			.len = b - a,
			.kind = kind[i],
			.dir = -1,
			.fn = -1,
		};
	}
	memset(lf->toks + lf->ntoks, 0,
	       ((n ? n : 1) - lf->ntoks) * sizeof(*lf->toks));
}

static void clang_tokens(CXTranslationUnit tu, CXFile f, struct lexfile *lf)
{
	CXSourceRange r = clang_getRange(
		clang_getLocationForOffset(tu, f, 0),
		clang_getLocationForOffset(tu, f, (unsigned)lf->len));
	CXToken *toks = NULL;
	unsigned n = 0, i, *start;
	unsigned char *kind;

	clang_tokenize(tu, r, &toks, &n);
	start = xcalloc(n + 1, sizeof(*start));
	kind = xcalloc(n + 1, 1);
	for (i = 0; i < n; i++) {
		clang_getFileLocation(clang_getTokenLocation(tu, toks[i]), NULL,
				      NULL, NULL, &start[i]);
		kind[i] = map_kind(clang_getTokenKind(toks[i]));
	}
	start[n] = (unsigned)lf->len;
	fill_tokens(lf, start, kind, n);
	free(start);
	free(kind);
	clang_disposeTokens(tu, toks, n);
}

void tu_lex_tokens(struct tu_parser *p, struct lexfile *lf)
{
	struct clex_toks *t = &p->toks;

	clex_tokens(lf->buf, lf->len, t);
	fill_tokens(lf, t->start, t->kind, t->n);
}

/* Is D "'x.h' file not found"?  (The spelling only of preprocessor ones.) */
static int header_not_found(CXDiagnostic d)
{
	CXString cat = clang_getDiagnosticCategoryText(d), sp;
	const char *t = clang_getCString(cat);
	int yes = 0;

	if (t && !strcmp(t, "Lexical or Preprocessor Issue")) {
		sp = clang_getDiagnosticSpelling(d);
		t = clang_getCString(sp);
		yes = t && strstr(t, "file not found");
		clang_disposeString(sp);
	}
	clang_disposeString(cat);
	return yes;
}

/*
 * Error and fatal diagnostics.  ALL_HEADERS 0 (single-file parses): the
 * errors (not the fatal "too many errors emitted", which a re-parsed
 * unit also keeps from every earlier parse), and not the "'x.h' file
 * not found" ones: such a parse enters no header anyway.  With the
 * error limit, at most -ferror-limit of them.
 */
static int count_errors(CXTranslationUnit tu, int all_headers)
{
	unsigned i, n = clang_getNumDiagnostics(tu);
	int errs = 0;

	for (i = 0; i < n; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);

		if (all_headers ? sev >= CXDiagnostic_Error :
				  sev == CXDiagnostic_Error &&
					  !header_not_found(d))
			errs++;
		clang_disposeDiagnostic(d);
	}
	return errs;
}

static const char *mode_name(enum parse_depth d, enum flag_source s)
{
	if (d == DEPTH_LEXICAL)
		return "lexical";
	if (d == DEPTH_SINGLE_FILE)
		return "single_file";
	switch (s) {
	case FS_COMPILE_COMMANDS: return "compile_commands";
	case FS_KBUILD: return "kbuild";
	case FS_EXPLICIT: return "kbuild";
	default: return "synthesized";
	}
}

static CXTranslationUnit parse_at(CXIndex idx, const struct parse_req *rq,
				  enum parse_depth depth, const char *path)
{
	struct CXUnsavedFile uf[3] = {
		{ path, rq->buf, (unsigned long)rq->len },
		{ SHIM_DIR "/gfpaudit-shim.h", shim_h, sizeof(shim_h) - 1 },
		{ SHIM_DIR "/generated/autoconf.h", "", 0 },
	};
	const char **args;
	unsigned opts = CXTranslationUnit_KeepGoing;
	CXTranslationUnit tu = NULL;
	int n = 0, i;

	args = xcalloc((size_t)(NBASE + rq->argc + rq->single_argc + 1),
		       sizeof(char *));
	if (depth == DEPTH_FULL) {
		args[n++] = "-xc";
		for (i = 0; i < rq->argc; i++)
			args[n++] = rq->argv[i];
		args[n++] = "-w";
	} else {
		for (i = 0; i < NBASE; i++)
			args[n++] = base_args[i];
		for (i = 0; i < rq->single_argc; i++)
			args[n++] = rq->single_argv[i];
		opts |= CXTranslationUnit_SingleFileParse;
		if (depth == DEPTH_LEXICAL)
			opts |= CXTranslationUnit_SkipFunctionBodies;
		else
			opts |= CXTranslationUnit_RetainExcludedConditionalBlocks;
	}
	if (clang_parseTranslationUnit2(idx, path, args, n, uf, 3, opts,
					&tu) != CXError_Success)
		tu = NULL;
	free(args);
	return tu;
}

void tu_global_init(void)
{
	setenv("LIBCLANG_NOTHREADS", "1", 0);
}

void tu_parser_init(struct tu_parser *p)
{
	memset(p, 0, sizeof(*p));
	p->idx = clang_createIndex(0, 0);
}

static void parser_drop(struct tu_parser *p)
{
	if (p->tu)
		clang_disposeTranslationUnit(p->tu);
	p->tu = NULL;
}

void tu_parser_free(struct tu_parser *p)
{
	parser_drop(p);
	clex_free(&p->toks);
	clang_disposeIndex(p->idx);
	memset(p, 0, sizeof(*p));
}

/*
 * The single-file tiers of one scan give every file the same arguments,
 * so most of what building a translation unit costs (the driver, its
 * toolchain probing, the compiler instance) is the same for each: every
 * file is re-parsed in the kept unit, under one main file name for all
 * (SINGLE_MAIN).  That name only reaches __FILE__ and where a quoted
 * #include is looked up, and a single-file parse enters no header: a
 * quoted one is "not found" as an angled one is, for every file alike
 * whichever worker parses it, so the error limit is reached the same
 * way.  A unit per directory (2,273 of them in 6.1) had cost 28% of the
 * CPU of a scan of fs/ and drivers/net, for the same rows.  Sets *MAIN
 * to the main file's name.
 */
static CXTranslationUnit single_at(struct tu_parser *p,
				   const struct parse_req *rq,
				   enum parse_depth depth, const char **main)
{
	struct CXUnsavedFile uf[3] = {
		{ SINGLE_MAIN, rq->buf, (unsigned long)rq->len },
		{ SHIM_DIR "/gfpaudit-shim.h", shim_h, sizeof(shim_h) - 1 },
		{ SHIM_DIR "/generated/autoconf.h", "", 0 },
	};

	/*
	 * Past the error limit, each parse leaves one fatal diagnostic in
	 * the unit for good: a fresh unit now and then keeps that short.
	 */
	if (p->tu && p->depth == depth && p->single_argv == rq->single_argv &&
	    p->single_argc == rq->single_argc && p->reparses < MAX_REPARSES) {
		p->reparses++;
		if (!clang_reparseTranslationUnit(p->tu, 3, uf,
				clang_defaultReparseOptions(p->tu))) {
			*main = SINGLE_MAIN;
			return p->tu;
		}
		/* A unit whose re-parse failed can only be disposed of. */
	}
	parser_drop(p);
	p->tu = parse_at(p->idx, rq, depth, SINGLE_MAIN);
	p->reparses = 0;
	if (!p->tu)
		return NULL;
	p->depth = depth;
	p->single_argv = rq->single_argv;
	p->single_argc = rq->single_argc;
	*main = SINGLE_MAIN;
	return p->tu;
}

int tu_parse(struct tu_parser *p, const struct parse_req *rq,
	     struct parse_res *res, struct lexfile *lf)
{
	enum parse_depth d = rq->depth;
	const char *main = rq->abspath;

	memset(res, 0, sizeof(*res));
	if (d == DEPTH_FULL) {
		res->tu = parse_at(p->idx, rq, d, rq->abspath);
		if (!res->tu)
			d = DEPTH_SINGLE_FILE;
	}
	if (!res->tu && d == DEPTH_SINGLE_FILE) {
		res->tu = single_at(p, rq, d, &main);
		if (!res->tu)
			d = DEPTH_LEXICAL;
	}
	if (!res->tu && d == DEPTH_LEXICAL)
		res->tu = single_at(p, rq, d, &main);
	if (!res->tu)
		return -1;
	res->reused = res->tu == p->tu;
	res->file = clang_getFile(res->tu, main);
	if (!res->file) {
		tu_dispose(res);
		return -1;
	}
	res->depth = d;
	res->parse_mode = mode_name(d, rq->source);
	res->diagnostics = count_errors(res->tu, d == DEPTH_FULL);
	/*
	 * The single-file tiers lex with gnu11, as clex.c does; the full
	 * tier with the tree's own flags (gnu89 before 5.18), as clang does.
	 */
	if (d == DEPTH_FULL || rq->clang_tokens)
		clang_tokens(res->tu, res->file, lf);
	else
		tu_lex_tokens(p, lf);
	return 0;
}

void tu_dispose(struct parse_res *res)
{
	if (res->tu && !res->reused)
		clang_disposeTranslationUnit(res->tu);
	res->tu = NULL;
}

/* --- compile flags -------------------------------------------------- */

struct ccentry {
	char *file;
	char **argv;
	int argc;
};

struct ccdb {
	struct ccentry *v;
	size_t n;
	struct name_set idx;
};

static void argv_push(char ***argv, int *argc, const char *s)
{
	*argv = xrealloc(*argv, (size_t)(*argc + 2) * sizeof(char *));
	(*argv)[(*argc)++] = xstrdup(s);
	(*argv)[*argc] = NULL;
}

/* Split a compile command the way a POSIX shell would (quotes, \). */
static void split_command(const char *cmd, char ***argv, int *argc)
{
	struct strbuf w = STRBUF_INIT;
	const char *p = cmd;
	int in = 0;

	for (;; p++) {
		if (!*p || ((*p == ' ' || *p == '\t') && !in)) {
			if (w.len) {
				argv_push(argv, argc, w.buf);
				sb_reset(&w);
			}
			if (!*p)
				break;
			continue;
		}
		if (*p == '\'' && in != '"') {
			in = in ? 0 : '\'';
		} else if (*p == '"' && in != '\'') {
			in = in ? 0 : '"';
		} else if (*p == '\\' && p[1] && in != '\'') {
			sb_addc(&w, *++p);
		} else {
			sb_addc(&w, *p);
		}
	}
	sb_release(&w);
}

static char *absolute(const char *dir, const char *p)
{
	return p[0] == '/' ? xstrdup(p) : xasprintf("%s/%s", dir, p);
}

/*
 * Keep what libclang needs from a compiler command line: drop the
 * compiler, -c, -o FILE and the source itself; make include paths
 * absolute (libclang resolves them against our cwd, not the entry's).
 */
static void clean_args(struct ccentry *e, char **raw, int n, const char *dir)
{
	static const char *const path_opts[] = { "-I", "-include", "-isystem",
						 "-iquote", "-imacros", NULL };
	int i, k;

	for (i = 1; i < n; i++) {
		const char *a = raw[i];

		if (!strcmp(a, "-c"))
			continue;
		if (!strcmp(a, "-o") && i + 1 < n) {
			i++;
			continue;
		}
		if (a[0] != '-') {
			char *abs = absolute(dir, a);
			int same = !strcmp(abs, e->file);

			free(abs);
			if (same)
				continue;
		}
		for (k = 0; path_opts[k]; k++) {
			size_t l = strlen(path_opts[k]);

			if (strncmp(a, path_opts[k], l))
				continue;
			if (!a[l] && i + 1 < n) {
				char *abs = absolute(dir, raw[++i]);

				argv_push(&e->argv, &e->argc, path_opts[k]);
				argv_push(&e->argv, &e->argc, abs);
				free(abs);
				break;
			}
			if (a[l] && !strcmp(path_opts[k], "-I")) {
				char *abs = absolute(dir, a + l);
				char *opt = xasprintf("-I%s", abs);

				argv_push(&e->argv, &e->argc, opt);
				free(abs);
				free(opt);
				break;
			}
		}
		if (!path_opts[k])
			argv_push(&e->argv, &e->argc, a);
	}
}

struct ccdb *ccdb_load(const char *path)
{
	sqlite3 *mem;
	sqlite3_stmt *st;
	char *text;
	size_t len;
	struct ccdb *c;

	if (read_whole_file(path, &text, &len)) {
		error_msg("%s: cannot read compile commands", path);
		return NULL;
	}
	if (sqlite3_open(":memory:", &mem) != SQLITE_OK ||
	    sqlite3_prepare_v2(mem,
			       "SELECT json_extract(value, '$.directory'), "
			       "json_extract(value, '$.file'), "
			       "json_extract(value, '$.command'), "
			       "json_extract(value, '$.arguments') "
			       "FROM json_each(?)", -1, &st, NULL) != SQLITE_OK) {
		error_msg("%s: %s", path, sqlite3_errmsg(mem));
		sqlite3_close(mem);
		free(text);
		return NULL;
	}
	sqlite3_bind_text(st, 1, text, (int)len, SQLITE_STATIC);
	c = xcalloc(1, sizeof(*c));
	names_init(&c->idx);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *dir = (const char *)sqlite3_column_text(st, 0);
		const char *file = (const char *)sqlite3_column_text(st, 1);
		const char *cmd = (const char *)sqlite3_column_text(st, 2);
		const char *arr = (const char *)sqlite3_column_text(st, 3);
		char **raw = NULL;
		int nraw = 0, i;
		struct ccentry *e;

		if (!dir || !file || (!cmd && !arr))
			continue;
		if (arr) { /* "arguments": a JSON array of strings */
			sqlite3_stmt *a;

			if (sqlite3_prepare_v2(mem, "SELECT value FROM json_each(?)",
					       -1, &a, NULL) != SQLITE_OK)
				continue;
			sqlite3_bind_text(a, 1, arr, -1, SQLITE_STATIC);
			while (sqlite3_step(a) == SQLITE_ROW)
				argv_push(&raw, &nraw,
					  (const char *)sqlite3_column_text(a, 0));
			sqlite3_finalize(a);
		} else {
			split_command(cmd, &raw, &nraw);
		}
		c->v = xrealloc(c->v, (c->n + 1) * sizeof(*c->v));
		e = &c->v[c->n];
		memset(e, 0, sizeof(*e));
		e->file = absolute(dir, file);
		clean_args(e, raw, nraw, dir);
		for (i = 0; i < nraw; i++)
			free(raw[i]);
		free(raw);
		names_put(&c->idx, e->file, strlen(e->file), (int)c->n);
		c->n++;
	}
	if (sqlite3_errcode(mem) != SQLITE_OK &&
	    sqlite3_errcode(mem) != SQLITE_DONE &&
	    sqlite3_errcode(mem) != SQLITE_ROW) {
		error_msg("%s: not a JSON compilation database (%s)", path,
			  sqlite3_errmsg(mem));
		sqlite3_finalize(st);
		sqlite3_close(mem);
		free(text);
		ccdb_free(c);
		return NULL;
	}
	sqlite3_finalize(st);
	sqlite3_close(mem);
	free(text);
	return c;
}

void ccdb_free(struct ccdb *c)
{
	size_t i;
	int k;

	if (!c)
		return;
	for (i = 0; i < c->n; i++) {
		for (k = 0; k < c->v[i].argc; k++)
			free(c->v[i].argv[k]);
		free(c->v[i].argv);
		free(c->v[i].file);
	}
	free(c->v);
	names_free(&c->idx);
	free(c);
}

/* clang's own freestanding headers (stddef.h, stdarg.h). */
static const char *resource_include(void)
{
	static char dir[512];
	static const char *const pats[] = {
		"/usr/lib/llvm-14/lib/clang/*/include",
		"/usr/lib/llvm-*/lib/clang/*/include",
		"/usr/lib/clang/*/include", NULL,
	};
	int i;

	for (i = 0; !dir[0] && pats[i]; i++) {
		glob_t g;

		if (glob(pats[i], 0, NULL, &g) == 0 && g.gl_pathc)
			snprintf(dir, sizeof(dir), "%s", g.gl_pathv[0]);
		globfree(&g);
	}
	return dir[0] ? dir : "/usr/include";
}

static void add_if_exists(struct cflags *f, const char *opt,
			  const char *tree, const char *rel)
{
	char *p = xasprintf("%s/%s", tree, rel);

	if (access(p, F_OK) == 0) {
		argv_push(&f->argv, &f->argc, opt);
		argv_push(&f->argv, &f->argc, p);
	}
	free(p);
}

/*
 * kbuild's LINUXINCLUDE (top-level Makefile) and the -include lines of
 * c_flags, for ARCH, with clang's own stddef/stdarg as kbuild's
 * -isystem $(CC -print-file-name=include).
 */
static void kbuild_flags(struct cflags *f, const char *tree, const char *arch,
			 int configured)
{
	static const char *const incs[] = {
		"arch/%s/include", "arch/%s/include/generated", "include",
		"arch/%s/include/uapi", "arch/%s/include/generated/uapi",
		"include/uapi", "include/generated/uapi", NULL,
	};
	const char *target = karch_triple(arch);
	int i;

	argv_push(&f->argv, &f->argc, "-nostdinc");
	if (target) {
		char *t = xasprintf("--target=%s", target);

		argv_push(&f->argv, &f->argc, t);
		free(t);
	}
	argv_push(&f->argv, &f->argc, "-isystem");
	argv_push(&f->argv, &f->argc, resource_include());
	for (i = 0; incs[i]; i++) {
		char *rel = xasprintf(incs[i], arch);

		add_if_exists(f, "-I", tree, rel);
		free(rel);
	}
	if (!configured) {
		argv_push(&f->argv, &f->argc, "-I" SHIM_DIR);
		argv_push(&f->argv, &f->argc, "-include");
		argv_push(&f->argv, &f->argc, SHIM_DIR "/gfpaudit-shim.h");
	}
	add_if_exists(f, "-include", tree, "include/linux/compiler-version.h");
	add_if_exists(f, "-include", tree, "include/linux/kconfig.h");
	add_if_exists(f, "-include", tree, "include/linux/compiler_types.h");
	argv_push(&f->argv, &f->argc, "-D__KERNEL__");
	argv_push(&f->argv, &f->argc, "-DKBUILD_MODNAME=\"gfpaudit\"");
	argv_push(&f->argv, &f->argc, "-DKBUILD_BASENAME=\"gfpaudit\"");
	argv_push(&f->argv, &f->argc, "-std=gnu11");
	argv_push(&f->argv, &f->argc, "-fno-strict-aliasing");
}

void cflags_for(struct cflags *out, const struct ccdb *cc, const char *tree,
		const char *arch, const char *abspath, int configured)
{
	int at = cc ? names_get(&cc->idx, abspath, strlen(abspath)) : -1;
	int i;

	memset(out, 0, sizeof(*out));
	if (at >= 0) {
		for (i = 0; i < cc->v[at].argc; i++)
			argv_push(&out->argv, &out->argc, cc->v[at].argv[i]);
		out->source = FS_COMPILE_COMMANDS;
		return;
	}
	kbuild_flags(out, tree, arch, configured);
	out->source = configured ? FS_KBUILD : FS_SYNTHESIZED;
}

void cflags_free(struct cflags *f)
{
	int i;

	for (i = 0; i < f->argc; i++)
		free(f->argv[i]);
	free(f->argv);
	memset(f, 0, sizeof(*f));
}
