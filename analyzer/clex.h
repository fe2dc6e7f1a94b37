/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_CLEX_H
#define GFPAUDIT_CLEX_H

/*
 * Raw lexing of a C file as clang_tokenize() does it in the single-file
 * tiers (-std=gnu11): each token's start offset, as clang's lexer puts
 * it, and its kind (enum tok_kind).  See clex.c.
 */

#include <stddef.h>

struct clex_toks {
	unsigned *start;
	unsigned char *kind;
	size_t n, cap;
};

/*
 * The tokens of BUF into T (reused: its arrays grow as needed); also
 * T->start[T->n], LEN, the end the last token's extent is cut at.
 */
void clex_tokens(const char *buf, size_t len, struct clex_toks *t);
void clex_free(struct clex_toks *t);

/* Is the word S (N bytes) a keyword of gnu11 for clang? */
int clex_is_keyword(const char *s, size_t n);

#endif
