/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_SCOPE_H
#define GFPAUDIT_SCOPE_H

#include "analyzer/names.h"

/*
 * A scan scoped to a few names (`scan --rule`): which files are in scope,
 * and which functions or macros the scope's files call with one of the
 * names in their arguments (`tmpbuf_zalloc(32, GFP_TEMPORARY)`), so that
 * the wrappers among them can be learned from the files that define them
 * without analysing the rest of the tree.  Text only: no parsing.
 */
struct scope {
	char **names;
	int n;
	struct name_set set;
	struct name_set callees; /* calls with a scope name in their args */
};

void scope_init(struct scope *s, char **names, int n);
void scope_free(struct scope *s);

/*
 * 1 when BUF names one of the scope's names as an identifier; the calls
 * that take one as (part of) an argument then go into s->callees.
 */
int scope_match(struct scope *s, const char *buf, size_t len);

/*
 * 1 when BUF looks like it defines one of s->callees: the name on a
 * #define line or on a line that starts in column 0 (kernel style puts a
 * function's name there or on its return type's line; calls are
 * indented).  Over-approximates: the caller parses what this selects.
 */
int scope_defines_callee(const struct scope *s, const char *buf, size_t len);

#endif
