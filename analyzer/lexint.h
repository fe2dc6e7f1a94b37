/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_LEXINT_H
#define GFPAUDIT_LEXINT_H

/* Internals shared by the token scan's files (lexscan, lexstruct, ...). */

#include "analyzer/lexscan.h"

#define MAX_SCAN 4000 /* tokens searched backwards for a context */

int lx_tok_is(const struct lexfile *lf, unsigned i, const char *s);
int lx_is_punct(const struct lexfile *lf, unsigned i, const char *s);
int lx_is_word(const struct lexfile *lf, unsigned i);
/* Line and column of byte offset OFF, counting from token I's position. */
void lx_pos_of(const struct lexfile *lf, unsigned i, unsigned off,
	       unsigned *line, unsigned *col);
/* Previous / next code token in the same region (directive or not). */
int lx_prev_code(const struct lexfile *lf, int i);
int lx_next_code(const struct lexfile *lf, int i);
/* Matching opener of the ')' or ']' at I, or -1. */
int lx_match_back(const struct lexfile *lf, int i);
char *lx_fn_name(const struct lexfile *lf, int fn);
/* The macro being defined when token I is in a #define, else NULL. */
char *lx_define_name(const struct lexfile *lf, unsigned i);
int lx_is_control_kw(const struct lexfile *lf, int i);
int lx_is_assign_op(const struct lexfile *lf, int i);

void lx_structure_pass(struct lexfile *lf, const struct menv_ctx *ctx);
void lx_find_uses(struct lexfile *lf, const struct tracked_flags *tf);
void lx_find_sites(struct lexfile *lf, const struct alloc_table *at);
void lx_learn_macros(struct lexfile *lf, const struct alloc_table *at);
void lx_learn_free_macros(struct lexfile *lf, const struct alloc_table *at);
void lx_find_macro_sites(struct lexfile *lf);
int lx_by_offset(const void *a, const void *b);

#endif
