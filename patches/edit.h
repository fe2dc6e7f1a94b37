/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_PATCHES_EDIT_H
#define GFPAUDIT_PATCHES_EDIT_H

#include "lib/util.h"

#include <stddef.h>

/*
 * Edits to one source file, located by the database's 1-based line and
 * byte column.  Applying them touches nothing but the named token or the
 * named lines: all other bytes, whitespace included, are copied.
 */
enum edit_kind {
	EDIT_TOKEN,	 /* replace the identifier `from` at line:col by `to` */
	EDIT_DEL_DEFINE, /* delete the #define at line and its continuations */
	EDIT_DEL_LINE,	 /* delete line (a flag-name table entry); when the
			  * line is not one, replace the token as EDIT_TOKEN */
	EDIT_ARG_ADD,	 /* the call argument starting at line:col, whose
			  * text is `from` (blanks aside): add the flag `to`
			  * with `|` (a lone `0` becomes `to`), unless it
			  * already has it */
	EDIT_ARG_PARAM,	 /* that argument's base mask `mask`, its only
			  * one, becomes the gfp_t parameter `to` */
};

struct edit {
	enum edit_kind kind;
	int line, col;
	const char *from; /* the token expected at line:col */
	const char *to;	  /* replacement; NULL drops it from its | expr */
	const char *mask; /* EDIT_ARG_PARAM: the token `to` replaces */
};

/*
 * Apply n edits (any order) to buf[0..len) into out.  Returns 0, or -1
 * with a message in err naming LINE:COL when the buffer does not hold what
 * an edit expects there (a stale database), or when edits overlap.
 */
int edits_apply(const char *buf, size_t len, struct edit *edits, int n,
		struct strbuf *out, char *err, size_t errlen);

/*
 * Apply the EDIT_ARG_* edit e, whose argument starts at buf[s]: append
 * the new argument text to out and set *t to the offset after the old
 * one.  Returns 0, or -1 with "LINE:COL: ..." in err.
 */
int edit_arg_apply(const char *buf, size_t len, size_t s,
		   const struct edit *e, struct strbuf *out, size_t *t,
		   char *err, size_t errlen);

#endif
