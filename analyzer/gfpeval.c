// SPDX-License-Identifier: GPL-2.0
/* Flag evaluation against the scanned tree's gfp headers. */
#include "analyzer/gfpeval.h"
#include "analyzer/lexscan.h"
#include "lib/util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const headers[] = {
	"include/linux/gfp_types.h", /* 6.0+: the flag bits moved here */
	"include/linux/gfp.h",
	"include/linux/slab.h",
	"include/linux/mmzone.h",
	/* errno values: only for the single-file tier's -D list */
	"include/uapi/asm-generic/errno-base.h",
	"include/uapi/asm-generic/errno.h",
	"include/asm-generic/errno-base.h", /* before the uapi split */
	"include/asm-generic/errno.h",
	NULL,
};

static int value_of(struct gfp_model *g, const struct kconfig *config,
		    const char *name, unsigned long long *v)
{
	struct menv_ctx c = { NULL, &g->env, config, NULL, NULL };

	return menv_eval_value(&c, name, strlen(name), v);
}

/* MIGRATE_* numbering from mmzone.h (enum in 2.6.26+, #defines before). */
static void load_mt_names(struct gfp_model *g, const struct kconfig *config)
{
	static const char *const known[] = {
		"MIGRATE_UNMOVABLE", "MIGRATE_MOVABLE", "MIGRATE_RECLAIMABLE",
		"MIGRATE_RESERVE", "MIGRATE_HIGHATOMIC", "MIGRATE_PCPTYPES",
		"MIGRATE_ISOLATE", "MIGRATE_CMA", NULL,
	};
	int i;

	for (i = 0; known[i]; i++) {
		unsigned long long v;
		char *name, *p;

		if (!value_of(g, config, known[i], &v) || v >= 8 ||
		    g->mt_names[v])
			continue;
		name = xstrdup(known[i] + 8);
		for (p = name; *p; p++)
			*p = (char)tolower((unsigned char)*p);
		g->mt_names[v] = name;
	}
	/* Without mmzone.h: the numbering of the era. */
	if (!g->mt_names[0] && !g->mt_names[1] && !g->mt_names[2]) {
		const char *const *order;
		static const char *const new_order[] = { "unmovable", "movable",
							 "reclaimable" };
		static const char *const old_order[] = { "unmovable",
							 "reclaimable", "movable" };

		order = g->shift_style ? new_order : old_order;
		for (i = 0; i < 3; i++)
			g->mt_names[i] = xstrdup(order[i]);
	}
}

void gfp_model_load(struct gfp_model *g, const char *tree,
		    const struct kconfig *config)
{
	unsigned long long v;
	int i;

	memset(g, 0, sizeof(*g));
	menv_init(&g->env);
	for (i = 0; headers[i]; i++) {
		char *p = xasprintf("%s/%s", tree, headers[i]);

		if (menv_read_header(&g->env, p, config) == 0 && i < 2)
			g->have_gfp = 1;
		free(p);
	}
	g->shift_style = value_of(g, config, "GFP_MOVABLE_SHIFT",
				  &g->movable_shift) &&
			 value_of(g, config, "GFP_MOVABLE_MASK",
				  &g->movable_mask) && g->movable_shift < 64;
	(void)v;
	value_of(g, config, "__GFP_MOVABLE", &g->movable);
	value_of(g, config, "__GFP_RECLAIMABLE", &g->reclaimable);
	value_of(g, config, "SLAB_RECLAIM_ACCOUNT", &g->slab_reclaim);
	if (!value_of(g, config, "__GFP_DIRECT_RECLAIM", &g->direct_reclaim))
		value_of(g, config, "__GFP_WAIT", &g->direct_reclaim);
	load_mt_names(g, config);
}

static int wanted_define(const char *n)
{
	static const char *const prefixes[] = { "GFP_", "__GFP_", "___GFP_",
						"SLAB_", NULL };
	int i;

	for (i = 0; prefixes[i]; i++)
		if (str_has_prefix(n, prefixes[i]))
			return 1;
	/* errno: E followed by capitals (EINVAL, ENOMEM, ...) */
	if (n[0] != 'E' || !n[1])
		return 0;
	for (n++; *n; n++)
		if (!(*n >= 'A' && *n <= 'Z') && !(*n >= '0' && *n <= '9'))
			return 0;
	return 1;
}

void gfp_model_defines(const struct gfp_model *g, const struct kconfig *config,
		       char ***argv, int *argc)
{
	struct menv_ctx c = { NULL, &g->env, config, NULL, NULL };
	size_t i;

	for (i = 0; i < g->env.idx.cap; i++) {
		const char *n = g->env.idx.keys[i];
		unsigned long long v;

		if (!n || !wanted_define(n) ||
		    !menv_eval_value(&c, n, strlen(n), &v))
			continue;
		*argv = xrealloc(*argv, (size_t)(*argc + 2) * sizeof(char *));
		(*argv)[(*argc)++] = xasprintf("-D%s=0x%llxULL", n, v);
		(*argv)[*argc] = NULL;
	}
}

void gfp_model_free(struct gfp_model *g)
{
	int i;

	menv_free(&g->env);
	for (i = 0; i < 8; i++)
		free(g->mt_names[i]);
}

const char *gfp_migratetype_of(const struct gfp_model *g,
			       unsigned long long mask)
{
	unsigned idx;

	if (!g->have_gfp)
		return NULL;
	if (g->shift_style) {
		/* gfp_migratetype(): (gfp & GFP_MOVABLE_MASK) >> SHIFT */
		idx = (unsigned)((mask & g->movable_mask) >> g->movable_shift);
	} else if (g->reclaimable) {
		/* 2.6.24 allocflags_to_migratetype(): movable<<1 | reclaimable */
		idx = (mask & g->movable ? 2u : 0u) |
		      (mask & g->reclaimable ? 1u : 0u);
	} else {
		return mask & g->movable ? "movable" : "unmovable";
	}
	return idx < 8 && g->mt_names[idx] ? g->mt_names[idx] : "unmovable";
}

void gfp_eval_site(const struct gfp_model *g, const struct macro_env *local,
		   const struct macro_env *undone, const struct macro_env *near,
		   const struct kconfig *config, struct site *s,
		   int cache_create)
{
	struct menv_ctx c = { local, &g->env, config, undone, near };
	const char *text = s->flags_resolved ? s->flags_resolved : s->flags;
	unsigned long long v;

	if (text && *text && menv_eval_value(&c, text, strlen(text), &v)) {
		s->mask_known = 1;
		s->gfp_mask = v;
		if (cache_create)
			s->migratetype = g->slab_reclaim && (v & g->slab_reclaim) ?
						 "reclaimable" : "unmovable";
		else
			s->migratetype = gfp_migratetype_of(g, v);
	}
	if (s->size && *s->size &&
	    menv_eval_value(&c, s->size, strlen(s->size), &v)) {
		s->size_known = 1;
		s->size_const = (long long)v;
	}
}

/*
 * The header named in [Q, E) after an `#include`: `"x.h"` beside the
 * file REL (its directory DIRLEN bytes long), `<linux/x.h>` in the
 * tree's include/.
 */
static void near_header(struct macro_env *near, const char *tree,
			const char *rel, int dirlen, const char *q,
			const char *e, const struct kconfig *config)
{
	const char *a, *b;
	char *path;

	while (q < e && (*q == ' ' || *q == '\t'))
		q++;
	if (q >= e || (*q != '"' && *q != '<'))
		return;
	a = q;
	b = memchr(a + 1, *a == '"' ? '"' : '>', (size_t)(e - a - 1));
	if (!b || b == a + 1)
		return;
	if (*a == '"')
		path = xasprintf("%s/%.*s%s%.*s", tree, dirlen, rel,
				 dirlen ? "/" : "", (int)(b - a - 1), a + 1);
	else
		path = xasprintf("%s/include/%.*s", tree, (int)(b - a - 1),
				 a + 1);
	menv_read_header(near, path, config);
	free(path);
}

void gfp_near_headers(struct macro_env *near, const char *tree,
		      const struct lexfile *lf, const struct kconfig *config)
{
	const char *slash = strrchr(lf->path, '/');
	int dirlen = slash ? (int)(slash - lf->path) : 0;
	size_t i;
	unsigned k;

	/* the #include directives the token pass recorded */
	for (i = 0; i < lf->ndirs; i++) {
		const struct directive *d = &lf->dirs[i];
		const struct tok *last = &lf->toks[d->end - 1];

		if (strcmp(d->kind, "include"))
			continue;
		for (k = d->first + 1;
		     k < d->end && !mem_is(lf->buf + lf->toks[k].off,
					   lf->toks[k].len, "include");)
			k++;
		if (k + 1 < d->end)
			near_header(near, tree, lf->path, dirlen,
				    lf->buf + lf->toks[k + 1].off,
				    lf->buf + last->off + last->len, config);
	}
}
