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
	int refused;	  /* set by edits_apply(): left as it was */
};

/*
 * Apply n edits (any order) to buf[0..len) into out.  Returns 0, or -1
 * with a message in err naming LINE:COL when the buffer does not hold what
 * an edit expects there (a stale database), or when edits overlap.
 *
 * Each edit's hunk is checked with edit_check() before it is kept; one
 * that does not change exactly the planned tokens is refused: its text is
 * left as it was, its `refused` set, and "LINE:COL: hunk refused: why"
 * (a line) added to refused when that is not NULL.
 */
int edits_apply(const char *buf, size_t len, struct edit *edits, int n,
		struct strbuf *out, struct strbuf *refused, char *err,
		size_t errlen);

/*
 * Whether replacing buf[s, t) by text[0..tlen) is the replacement e
 * plans, token by token (comments and blanks aside): EDIT_TOKEN `from`
 * into `to`, or `from` dropped with one `|` (or into `0` where it stood
 * alone); EDIT_ARG_PARAM `mask` into `to`; EDIT_ARG_ADD `| to` appended,
 * the argument bracketed first or a lone `0` replaced.  Returns 0, or -1
 * with the difference found and the one planned in why.
 */
int edit_check(const char *buf, size_t len, size_t s, size_t t,
	       const char *text, size_t tlen, const struct edit *e, char *why,
	       size_t whylen);

/*
 * Apply the EDIT_ARG_* edit e, whose argument starts at buf[s]: append
 * the new argument text to out and set *t to the offset after the old
 * one.  Returns 0; 1 with why in err when the argument is the expected
 * one but not what the plan can change (EDIT_ARG_PARAM: its mask is not
 * its one base mask), for the caller to refuse the hunk; or -1 with
 * "LINE:COL: ..." in err when the argument is not the expected one.
 */
int edit_arg_apply(const char *buf, size_t len, size_t s, const struct edit *e,
		   struct strbuf *out, size_t *t, char *err, size_t errlen);

#endif
