/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_TU_H
#define GFPAUDIT_TU_H

/*
 * Parsing one file with libclang at the requested depth, and the compiler
 * flags for the full tier: compile_commands.json, kbuild-derived flags
 * for a configured tree, or synthesized include paths plus a shim header
 * for an unconfigured one.
 */

#include "analyzer/clex.h"
#include "analyzer/lexscan.h"
#include "analyzer/walker.h"

#include <clang-c/Index.h>

enum flag_source {
	FS_NONE,	     /* single-file / lexical: no flags */
	FS_COMPILE_COMMANDS, /* the file's entry in compile_commands.json */
	FS_KBUILD,	     /* configured tree: kbuild's LINUXINCLUDE & co */
	FS_SYNTHESIZED,	     /* unconfigured: made-up include paths + shim */
	FS_EXPLICIT,	     /* given by the caller (gfpaudit check) */
};

struct parse_req {
	const char *tree;	/* absolute tree root */
	const char *abspath;	/* absolute path of the file */
	const char *buf;	/* its contents (already read) */
	size_t len;
	enum parse_depth depth;
	/* Full tier: extra clang arguments (without the file name). */
	const char *const *argv;
	int argc;
	enum flag_source source;
	/* Single-file tiers: -D definitions of the tree's constants. */
	const char *const *single_argv;
	int single_argc;
	/* Tokens from clang_tokenize() at every depth (tests/tools/lexcheck). */
	int clang_tokens;
};

struct parse_res {
	CXTranslationUnit tu; /* NULL when even the tokenizer failed */
	int reused;	      /* tu belongs to the tu_parser, not to us */
	CXFile file;
	enum parse_depth depth; /* what was actually achieved */
	const char *parse_mode; /* files.parse_mode */
	int diagnostics;	/* error + fatal diagnostics in the file (a
				 * single-file parse: headers not found aside) */
};

/*
 * One thread's libclang state: its index and the last translation unit
 * of the single-file tiers, which the next file re-parses
 * (clang_reparseTranslationUnit) instead of building a new one.
 */
struct tu_parser {
	CXIndex idx;
	CXTranslationUnit tu; /* NULL: none kept */
	enum parse_depth depth;
	const char *const *single_argv;
	int single_argc;
	unsigned reparses; /* of the kept unit (see single_at()) */
	struct clex_toks toks; /* clex_tokens()'s arrays, reused */
};

void tu_parser_init(struct tu_parser *p);

/*
 * Once per process, before any thread starts.  libclang runs each parse
 * on a new thread with an 8 MiB stack unless LIBCLANG_NOTHREADS is set:
 * creating it and faulting its stack in was over a quarter of a scan's
 * CPU (fs/, mm/ and kernel/ of 6.1, -j 1: 16.1 and 15.7 s against 11.8
 * and 12.0 s, the databases identical).  The parse then runs on the
 * caller's thread, still under crash recovery; a thread that parses
 * wants TU_STACK_SIZE.
 */
#define TU_STACK_SIZE ((size_t)8 << 20)
void tu_global_init(void);
void tu_parser_free(struct tu_parser *p);

/*
 * Parse; on failure of the full tier fall back to single-file parsing.
 * Fills lf->toks with the whole file's raw tokens: clex_tokens() at the
 * single-file tiers, clang_tokenize() at the full one.
 */
int tu_parse(struct tu_parser *p, const struct parse_req *rq,
	     struct parse_res *res, struct lexfile *lf);
/* lf->toks from clex_tokens() alone. */
void tu_lex_tokens(struct tu_parser *p, struct lexfile *lf);
void tu_dispose(struct parse_res *res);

/* The compile flags of the full tier for one file. */
struct cflags {
	char **argv;
	int argc;
	enum flag_source source;
};

struct ccdb; /* compile_commands.json, indexed by absolute file path */

/* Load compile_commands.json; NULL after a one-line error. */
struct ccdb *ccdb_load(const char *path);
void ccdb_free(struct ccdb *c);

/*
 * Flags for ABSPATH: from CC when it has the file, else kbuild-derived
 * for a configured tree (TREE/include/generated/autoconf.h), else
 * synthesized.  ARCH is the kernel arch directory name (x86, arm64...).
 */
void cflags_for(struct cflags *out, const struct ccdb *cc, const char *tree,
		const char *arch, const char *abspath, int configured);
void cflags_free(struct cflags *f);

#endif
