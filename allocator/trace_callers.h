/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_ALLOCATOR_TRACE_CALLERS_H
#define GFPAUDIT_ALLOCATOR_TRACE_CALLERS_H
/*
 * Fallbacks of a traced kernel by the function that allocated (from the
 * kernel stacks tools/kboot --stacks records), joined with the sites of a
 * scan of the same tree (simulate --trace T --db DB).
 */
#include <sqlite3.h>
#include <stdio.h>

struct fallback_caller {
	char *function; /* the allocator's caller: sites.function */
	char *via;	/* the allocator frame: sites.api */
	unsigned long fallbacks, fragmenting, steals;
};

struct fallback_callers {
	struct fallback_caller *v;
	size_t n;
	unsigned long fallbacks, with_stack, unattributed;
};

/* Read the text trace PATH; 0, or -1 (unreadable, database error). */
int trace_fallback_callers(const char *path, sqlite3 *db,
			   struct fallback_callers *fc);
/* The table, most fallbacks first, each with up to three of its sites. */
void trace_fallback_callers_print(FILE *out, sqlite3 *db,
				  struct fallback_callers *fc);
void trace_fallback_callers_free(struct fallback_callers *fc);

#endif
