// SPDX-License-Identifier: GPL-2.0
/*
 * The call graph's definitions and edges (summaries_int.h): which
 * definition a call of a name reaches from a file, and the callers of
 * each definition.
 */
#include "analyzer/summaries_int.h"
#include "lib/beside.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void chain_put(struct name_set *s, struct fn *f, int i, const char *key)
{
	int head = names_get(s, key, strlen(key));

	f[i].next = head;
	names_put(s, key, strlen(key), i);
}

void summaries_index_defs(struct graph *g)
{
	size_t i, nstatic = 0;

	for (i = 0; i < g->n; i++)
		nstatic += g->f[i].is_static != 0;
	names_reserve(&g->global, g->n - nstatic);
	names_reserve(&g->statics, nstatic);
	names_reserve(&g->static_names, nstatic);

	/* in reverse, so that each chain starts with the first by path */
	for (i = g->n; i-- > 0;) {
		struct fn *f = &g->f[i];

		f->next = -1;
		if (!f->is_static) {
			chain_put(&g->global, g->f, (int)i, f->name);
		} else {
			char *k = xasprintf("%lld:%s", f->file_id, f->name);

			chain_put(&g->statics, g->f, (int)i, k);
			names_put(&g->static_names, f->name, strlen(f->name), 1);
			free(k);
		}
	}
	/* a header's static: the first by path, for callers elsewhere */
	for (i = 0; i < g->n; i++) {
		struct fn *f = &g->f[i];

		if (f->is_static && str_has_suffix(f->path, ".h") &&
		    names_get(&g->hstatics, f->name, strlen(f->name)) < 0)
			names_put(&g->hstatics, f->name, strlen(f->name),
				  (int)i);
	}
}

int summaries_static_def(const struct graph *g, long long file_id,
			 const char *name, size_t len)
{
	char key[320];
	int n = snprintf(key, 24, "%lld:", file_id);

	if (n <= 0 || (size_t)n + len >= sizeof(key))
		return -1;
	memcpy(key + n, name, len);
	return names_get(&g->statics, key, (size_t)n + len);
}

int summaries_resolve(const struct graph *g, long long file_id, const char *name,
		   size_t len)
{
	uint64_t h = names_hash(name, len);
	int i;

	/* the file's own static of that name first (most names are none) */
	if (names_get_hashed(&g->static_names, name, len, h) >= 0) {
		i = summaries_static_def(g, file_id, name, len);
		if (i >= 0)
			return i;
	}
	i = names_get_hashed(&g->global, name, len, h);
	if (i >= 0)
		return i;
	return names_get_hashed(&g->hstatics, name, len, h);
}

size_t summaries_shared_dirs(const char *a, const char *b)
{
	size_t i, last = 0;

	for (i = 0; a[i] && a[i] == b[i]; i++)
		if (a[i] == '/')
			last = i + 1;
	return last;
}

/* Are A and B under two architectures' arch/ (never linked together)? */
static int other_arch(const char *a, const char *b)
{
	size_t n;

	if (!str_has_prefix(a, "arch/") || !str_has_prefix(b, "arch/"))
		return 0;
	n = strcspn(a + 5, "/");
	return strncmp(a, b, n + 6) != 0;
}

/*
 * Of several global definitions of a name that FIRST begins (two
 * drivers' vnic_dev_fw_info(), per-arch variants), the caller at PATH
 * reaches those nearest it: a module links against its own.  How many
 * leading directories they share with PATH.
 */
static size_t nearest_def(const struct graph *g, int first, const char *path)
{
	size_t best = 0, d;
	int j;

	if (first < 0 || g->f[first].next < 0)
		return 0;
	FOR_EACH_DEF(g, j, first)
	if ((d = summaries_shared_dirs(g->f[j].path, path)) > best)
		best = d;
	return best;
}

int summaries_def_in(const struct graph *g, long long file_id,
		     const char *name, size_t len)
{
	int first = summaries_resolve(g, file_id, name, len), j;

	FOR_EACH_DEF(g, j, first)
	if (g->f[j].file_id == file_id)
		return j;
	return -1;
}

/* Calls in F's callees, one at a time: returns the length, 0 at the end. */
size_t summaries_next_callee(const char **p)
{
	const char *s = *p, *e;

	while (*s == ' ')
		s++;
	for (e = s; *e && *e != ' ';)
		e++;
	*p = e;
	return (size_t)(e - s);
}

/* The calls of functions [FROM, TO): {callee definition, caller} each. */
struct edges {
	const struct graph *g;
	size_t from, to;
	int (*v)[2];
	size_t n, cap;
};

static void *collect_edges(void *arg)
{
	struct edges *e = arg;
	const struct graph *g = e->g;
	size_t i;
	int j;

	for (i = e->from; i < e->to; i++) {
		const char *p = g->f[i].callees, *s;
		size_t len, best;
		int first;

		if (!p)
			continue;
		while ((len = summaries_next_callee(&p))) {
			s = p - len;
			if (names_get(&g->allocs, s, len) >= 0)
				continue;
			first = summaries_resolve(g, g->f[i].file_id, s, len);
			best = nearest_def(g, first, g->f[i].path);
			FOR_EACH_DEF(g, j, first)
			{
				if ((best && summaries_shared_dirs(
						     g->f[j].path,
						     g->f[i].path) < best) ||
				    other_arch(g->f[j].path, g->f[i].path))
					continue;
				if (e->n == e->cap) {
					e->cap = e->cap ? e->cap * 2 : 1 << 16;
					e->v = xrealloc(e->v,
							e->cap * sizeof(*e->v));
				}
				e->v[e->n][0] = j;
				e->v[e->n++][1] = (int)i;
			}
		}
	}
	return NULL;
}

void summaries_build_reverse(struct graph *g)
{
	size_t i, k, nedges = 0;
	int *count = xcalloc(g->n + 1, sizeof(int));
	struct edges part[2];
	struct beside b;

	/*
	 * Each call resolved once, the two halves of the functions on two
	 * threads (the lookups only read the graph: 0.7 s of a 6.1 link on
	 * one CPU), then a counting sort by callee over the halves in turn,
	 * so that the edges come in the same order as from one thread.
	 */
	memset(part, 0, sizeof(part));
	part[0].g = part[1].g = g;
	part[0].to = part[1].from = g->n / 2;
	part[1].to = g->n;
	beside_start(&b, collect_edges, &part[1]);
	collect_edges(&part[0]);
	beside_finish(&b);
	for (k = 0; k < 2; k++)
		for (i = 0; i < part[k].n; i++)
			count[part[k].v[i][0]]++;
	nedges = part[0].n + part[1].n;
	g->rev_start = xcalloc(g->n + 1, sizeof(int));
	for (i = 0; i < g->n; i++) {
		g->rev_start[i + 1] = g->rev_start[i] + count[i];
		count[i] = g->rev_start[i + 1]; /* filled downwards */
	}
	g->rev = xcalloc(nedges + 1, sizeof(int));
	/* downwards, from the last edge: each list keeps caller order */
	for (k = 2; k-- > 0;)
		for (i = part[k].n; i-- > 0;)
			g->rev[--count[part[k].v[i][0]]] = part[k].v[i][1];
	free(part[0].v);
	free(part[1].v);
	free(count);
}
