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
};

struct edit {
	enum edit_kind kind;
	int line, col;
	const char *from; /* the token expected at line:col */
	const char *to;	  /* replacement; NULL drops it from its | expr */
};

/*
 * Apply n edits (any order) to buf[0..len) into out.  Returns 0, or -1
 * with a message in err naming LINE:COL when the buffer does not hold what
 * an edit expects there (a stale database), or when edits overlap.
 */
int edits_apply(const char *buf, size_t len, struct edit *edits, int n,
		struct strbuf *out, char *err, size_t errlen);

#endif
