// SPDX-License-Identifier: GPL-2.0
/*
 * Which call sites fragment memory in practice: the fallbacks of a
 * traced kernel (mm_page_alloc_extfrag, recorded with
 * options/stacktrace), each attributed to the function that called the
 * allocator, joined with that function's sites in a scan of the same
 * tree.
 *
 * The allocator is the outermost frame the database knows as an
 * allocator (allocators.kind = 'alloc': the built-in ones and the
 * learned wrappers), so the caller is what `sites.function` holds for
 * the call that asked for the memory: __d_alloc for a dentry, pipe_write
 * for a pipe buffer.  The page and slab allocators' own frames between
 * the tracepoint and that frame (rmqueue_bulk, allocate_slab, ...) are
 * passed over because they come before it.
 */
#include "allocator/trace_callers.h"
#include "db/db.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FRAMES 64

struct pending {
	char *frame[MAX_FRAMES];
	int n;
	int active, fragmenting, steal;
};

static int is_allocator(sqlite3_stmt *q, const char *name)
{
	int yes;

	sqlite3_reset(q);
	sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
	yes = sqlite3_step(q) == SQLITE_ROW;
	return yes;
}

static struct fallback_caller *find_or_add(struct fallback_callers *fc,
					   const char *caller, const char *via)
{
	size_t i;

	for (i = 0; i < fc->n; i++)
		if (!strcmp(fc->v[i].function, caller) &&
		    !strcmp(fc->v[i].via, via))
			return &fc->v[i];
	fc->v = xrealloc(fc->v, (fc->n + 1) * sizeof(*fc->v));
	memset(&fc->v[fc->n], 0, sizeof(*fc->v));
	fc->v[fc->n].function = xstrdup(caller);
	fc->v[fc->n].via = xstrdup(via);
	return &fc->v[fc->n++];
}

/* The stack of one extfrag event is complete: attribute it. */
static void flush(struct pending *p, sqlite3_stmt *q,
		  struct fallback_callers *fc)
{
	int i, last = -1;

	if (!p->active)
		return;
	fc->with_stack += p->n > 0;
	for (i = 0; i < p->n; i++)
		if (is_allocator(q, p->frame[i]))
			last = i;
	if (last >= 0 && last + 1 < p->n) {
		struct fallback_caller *c =
			find_or_add(fc, p->frame[last + 1], p->frame[last]);

		c->fallbacks++;
		c->fragmenting += p->fragmenting;
		c->steals += p->steal;
	} else if (p->n) {
		fc->unattributed++;
	}
	for (i = 0; i < p->n; i++)
		free(p->frame[i]);
	memset(p, 0, sizeof(*p));
}

/* " => name+0x1c/0x80" or " => name": the name, malloc'd; NULL if not. */
static char *frame_name(const char *line)
{
	const char *s = line;
	size_t n;

	while (*s == ' ' || *s == '\t')
		s++;
	if (strncmp(s, "=> ", 3))
		return NULL;
	s += 3;
	n = strcspn(s, "+ \t\r\n");
	return n ? xstrndup(s, n) : NULL;
}

int trace_fallback_callers(const char *path, sqlite3 *db,
			   struct fallback_callers *fc)
{
	sqlite3_stmt *q = db_prepare(db, "SELECT 1 FROM allocators WHERE "
					 "name = ?1 AND kind = 'alloc'");
	struct pending p = { 0 };
	char *line = NULL;
	size_t cap = 0;
	FILE *f;

	memset(fc, 0, sizeof(*fc));
	if (!q)
		return -1;
	f = fopen(path, "r");
	if (!f) {
		sqlite3_finalize(q);
		return -1;
	}
	while (getline(&line, &cap, f) > 0) {
		char *name;

		if (strstr(line, "mm_page_alloc_extfrag:")) {
			flush(&p, q, fc);
			p.active = 1;
			p.fragmenting = !!strstr(line, "fragmenting=1");
			p.steal = !!strstr(line, "change_ownership=1");
			fc->fallbacks++;
			continue;
		}
		if (!p.active || strstr(line, "<stack trace>"))
			continue;
		name = frame_name(line);
		if (!name) {
			flush(&p, q, fc);
			continue;
		}
		if (p.n < MAX_FRAMES)
			p.frame[p.n++] = name;
		else
			free(name);
	}
	flush(&p, q, fc);
	free(line);
	fclose(f);
	sqlite3_finalize(q);
	return 0;
}

static int by_count(const void *a, const void *b)
{
	const struct fallback_caller *x = a, *y = b;

	if (x->fallbacks != y->fallbacks)
		return x->fallbacks < y->fallbacks ? 1 : -1;
	return strcmp(x->function, y->function);
}

void trace_fallback_callers_print(FILE *out, sqlite3 *db,
				  struct fallback_callers *fc)
{
	sqlite3_stmt *s = db_prepare(db,
		"SELECT path || ':' || line, api, coalesce(flags, ''), "
		"coalesce(lifetime, '') FROM sites WHERE function = ?1 "
		"ORDER BY api <> ?2, path, line LIMIT 3");
	size_t i;

	fprintf(out, "# fallbacks by allocating function: %lu fallbacks, %lu "
		"with a stack, %lu not attributed (no known allocator in "
		"the stack)\n", fc->fallbacks, fc->with_stack,
		fc->unattributed);
	fprintf(out, "function\tvia\tfallbacks\tfragmenting\tsteals\tsite\t"
		     "api\tflags\tlifetime\n");
	qsort(fc->v, fc->n, sizeof(*fc->v), by_count);
	for (i = 0; i < fc->n && s; i++) {
		const struct fallback_caller *c = &fc->v[i];
		int rows = 0;

		sqlite3_reset(s);
		sqlite3_bind_text(s, 1, c->function, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 2, c->via, -1, SQLITE_STATIC);
		while (sqlite3_step(s) == SQLITE_ROW) {
			fprintf(out, "%s\t%s\t%lu\t%lu\t%lu\t%s\t%s\t%s\t%s\n",
				c->function, c->via, c->fallbacks,
				c->fragmenting, c->steals,
				sqlite3_column_text(s, 0),
				sqlite3_column_text(s, 1),
				sqlite3_column_text(s, 2),
				sqlite3_column_text(s, 3));
			rows++;
		}
		if (!rows)
			fprintf(out, "%s\t%s\t%lu\t%lu\t%lu\t-\t-\t-\t-\n",
				c->function, c->via, c->fallbacks,
				c->fragmenting, c->steals);
	}
	sqlite3_finalize(s);
}

void trace_fallback_callers_free(struct fallback_callers *fc)
{
	size_t i;

	for (i = 0; i < fc->n; i++) {
		free(fc->v[i].function);
		free(fc->v[i].via);
	}
	free(fc->v);
	memset(fc, 0, sizeof(*fc));
}
