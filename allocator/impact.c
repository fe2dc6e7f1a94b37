// SPDX-License-Identifier: GPL-2.0
/* The site-driven workload of `simulate --db --rule`: see impact.h. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allocator/impact.h"
#include "allocator/slab.h"
#include "db/db.h"
#include "db/labels.h"
#include "lib/ktree.h"
#include "lib/util.h"

/* Token match: NAME in FLAGS not as part of a longer identifier. */
static bool has_token(const char *flags, const char *name)
{
	size_t n = strlen(name);
	const char *p = flags;

	while ((p = strstr(p, name))) {
		char b = p == flags ? ' ' : p[-1], a = p[n];
		bool idb = (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') ||
			   (b >= '0' && b <= '9') || b == '_';
		bool ida = (a >= 'A' && a <= 'Z') || (a >= 'a' && a <= 'z') ||
			   (a >= '0' && a <= '9') || a == '_';

		if (!idb && !ida)
			return true;
		p += n;
	}
	return false;
}

int flags_text_migratetype(const char *flags)
{
	if (!flags)
		return MIGRATE_UNMOVABLE;
	if (has_token(flags, "GFP_TEMPORARY") ||
	    has_token(flags, "__GFP_RECLAIMABLE") ||
	    has_token(flags, "SLAB_RECLAIM_ACCOUNT"))
		return MIGRATE_RECLAIMABLE;
	if (has_token(flags, "__GFP_MOVABLE") ||
	    has_token(flags, "GFP_HIGHUSER_MOVABLE") ||
	    has_token(flags, "GFP_USER_MOVABLE"))
		return MIGRATE_MOVABLE;
	return MIGRATE_UNMOVABLE;
}

static int mt_from_column(const char *s)
{
	if (!s)
		return -1;
	if (!strcmp(s, "unmovable"))
		return MIGRATE_UNMOVABLE;
	if (!strcmp(s, "reclaimable"))
		return MIGRATE_RECLAIMABLE;
	if (!strcmp(s, "movable"))
		return MIGRATE_MOVABLE;
	return -1;
}

/* FLAGS with each whole-identifier FROM replaced by TO ("" drops it). */
static char *replace_token(const char *flags, const char *from, const char *to)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = strlen(from);
	const char *p = flags;

	while (*p) {
		const char *q = strstr(p, from);
		bool idb, ida;

		if (!q) {
			sb_adds(&sb, p);
			break;
		}
		idb = q > flags && (isalnum((unsigned char)q[-1]) || q[-1] == '_');
		ida = isalnum((unsigned char)q[n]) || q[n] == '_';
		sb_addf(&sb, "%.*s", (int)(q - p), p);
		sb_adds(&sb, idb || ida ? from : to);
		p = q + n;
	}
	return sb_detach(&sb);
}

/*
 * What the rule's edits make of a site's mobility: its flags text with
 * the rule's tokens replaced (or dropped), read again; a site whose text
 * names none of them keeps what it had.
 */
static int rule_apply(const struct impact_rule *r, const char *flags, int mt)
{
	char *text;
	bool hit = false;
	int i;

	if (!flags)
		return mt;
	text = xstrdup(flags);
	for (i = 0; i < r->n; i++) {
		char *next;

		if (!has_token(text, r->from[i]))
			continue;
		hit = true;
		next = replace_token(text, r->from[i], r->to[i] ? r->to[i] : "");
		free(text);
		text = next;
	}
	if (hit)
		mt = flags_text_migratetype(text);
	free(text);
	return mt;
}

static bool api_is(const char *api, const char *const *names)
{
	for (; *names; names++)
		if (!strcmp(api, *names))
			return true;
	return false;
}

/* kind, order and size of a site's allocations; false to skip it */
static bool site_kind(const char *api, long long size_const, struct stream *s)
{
	static const char *const page_apis[] = {"__get_free_pages",
						"__get_free_page",
						"get_zeroed_page",
						"alloc_pages",
						"alloc_page",
						"__alloc_pages",
						"alloc_pages_node",
						"__alloc_pages_node",
						"alloc_pages_exact",
						"folio_alloc",
						NULL};
	static const char *const cache_apis[] = {
		"kmem_cache_alloc", "kmem_cache_zalloc",
		"kmem_cache_alloc_node", "kmem_cache_alloc_lru", NULL};
	static const char *const not_allocs[] = {"kmem_cache_create",
						 "kmem_cache_create_usercopy",
						 "KMEM_CACHE", NULL};

	if (api_is(api, not_allocs))
		return false;
	if (api_is(api, page_apis)) {
		/* their "size" argument is the order (__get_free_pages(gfp,
		 * order)) */
		s->kind = SK_PAGES;
		s->order = size_const >= 0 && size_const < MAX_ORDER
				   ? (unsigned int)size_const
				   : 0;
		return true;
	}
	if (api_is(api, cache_apis)) {
		/* the cache's own flags decide, the caller's mobility is
		 * ignored */
		s->kind = SK_CACHE;
		s->size = size_const > 0 && size_const <= 8192
				  ? (unsigned int)size_const
				  : 256;
		return true;
	}
	s->kind = SK_KMALLOC;
	if (size_const <= 0)
		s->size = 256; /* not constant: a typical small buffer */
	else
		s->size = size_const > (4 << 20) ? 4 << 20
						 : (unsigned int)size_const;
	return true;
}

static void site_life(const char *lifetime, struct stream *s)
{
	s->life = LIFE_SHORT;
	switch (lifetime ? site_lifetime_of(lifetime) : LIFETIME_UNKNOWN) {
	case LIFETIME_UNKNOWN: /* and not classified */
		s->life_steps = 500;
		break;
	case LIFETIME_SCOPED:
		s->life_steps = 50;
		break;
	case LIFETIME_RETURNED:
		s->life_steps = 5000;
		break;
	default:
		s->life = LIFE_LONG; /* stored, leaked_on_path */
	}
}

static unsigned int size_class(const struct stream *s)
{
	unsigned int c = 0, v = s->kind == SK_PAGES ? s->order : s->size;

	while (v > 1) {
		v >>= 1;
		c++;
	}
	return c;
}

static void add_site(struct impact_sites *out, const struct stream *as_is,
		     const struct stream *patched)
{
	size_t i;

	for (i = 0; i < out->nr_groups; i++) {
		struct impact_group *g = &out->g[i];

		if (g->as_is.kind == as_is->kind && g->as_is.mt == as_is->mt &&
		    g->patched.mt == patched->mt &&
		    g->as_is.life == as_is->life &&
		    g->as_is.life_steps == as_is->life_steps &&
		    size_class(&g->as_is) == size_class(as_is)) {
			g->sites++;
			g->as_is.weight = g->patched.weight = (double)g->sites;
			g->as_is.burst_weight = g->patched.burst_weight =
				g->as_is.weight;
			return;
		}
	}
	if (out->nr_groups == out->alloc_groups) {
		out->alloc_groups =
			out->alloc_groups ? out->alloc_groups * 2 : 32;
		out->g = xrealloc(out->g, out->alloc_groups * sizeof(*out->g));
	}
	out->g[out->nr_groups].as_is = *as_is;
	out->g[out->nr_groups].patched = *patched;
	out->g[out->nr_groups].sites = 1;
	out->nr_groups++;
}

int impact_load(sqlite3 *db, const struct impact_rule *rule,
		const char *kversion, struct impact_sites *out)
{
	sqlite3_stmt *st;
	size_t i;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!rule->n) {
		snprintf(out->error, sizeof(out->error),
			 "rule %s changes no flag token (the impact workload "
			 "needs a replace or drop rule)", rule->name);
		return -1;
	}
	if (kversion) {
		out->kernel_version = xstrdup(kversion);
	} else {
		st = db_prepare(
			db,
			"SELECT kernel_version FROM runs WHERE"
			" kernel_version IS NOT NULL ORDER BY id DESC LIMIT 1");
		if (!st) {
			snprintf(out->error, sizeof(out->error),
				 "cannot read runs");
			return -1;
		}
		if (sqlite3_step(st) == SQLITE_ROW &&
		    sqlite3_column_text(st, 0))
			out->kernel_version = xstrdup(
				(const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	st = db_prepare(db,
			"SELECT api, size_const, lifetime, migratetype, flags"
			" FROM sites WHERE coalesce(in_disabled_branch, 0) = 0"
			" ORDER BY id");
	if (!st) {
		snprintf(out->error, sizeof(out->error),
			 "cannot read the sites table");
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *api = (const char *)sqlite3_column_text(st, 0);
		long long size = sqlite3_column_type(st, 1) == SQLITE_NULL
					 ? -1
					 : sqlite3_column_int64(st, 1);
		const char *life = (const char *)sqlite3_column_text(st, 2);
		const char *mtcol = (const char *)sqlite3_column_text(st, 3);
		const char *flags = (const char *)sqlite3_column_text(st, 4);
		struct stream a = {0}, p;
		int mt = mt_from_column(mtcol);

		if (!api || !site_kind(api, size, &a))
			continue;
		if (mt < 0)
			mt = flags_text_migratetype(flags);
		site_life(life, &a);
		a.mt = mt;
		a.weight = a.burst_weight = 1;
		p = a;
		p.mt = rule_apply(rule, flags, mt);
		out->nr++;
		out->nr_changed += p.mt != a.mt;
		add_site(out, &a, &p);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		snprintf(out->error, sizeof(out->error), "reading sites: %s",
			 sqlite3_errmsg(db));
		return -1;
	}
	if (!out->nr) {
		snprintf(out->error, sizeof(out->error),
			 "the sites table has no allocation sites (run "
			 "gfpaudit scan first)");
		return -1;
	}
	for (i = 0; i < out->nr_groups; i++) {
		struct impact_group *g = &out->g[i];
		static const char *const mtn[] = {"unmovable", "movable",
						  "reclaimable"};

		snprintf(g->name, sizeof(g->name), "%s/%u/%s->%s/%s",
			 g->as_is.kind == SK_PAGES   ? "pages"
			 : g->as_is.kind == SK_CACHE ? "cache"
						     : "kmalloc",
			 g->as_is.kind == SK_PAGES ? g->as_is.order
						   : g->as_is.size,
			 mtn[g->as_is.mt], mtn[g->patched.mt],
			 g->as_is.life == LIFE_LONG ? "long" : "short");
		g->as_is.name = g->patched.name = g->name;
	}
	return 0;
}

void impact_sites_free(struct impact_sites *s)
{
	free(s->g);
	free(s->kernel_version);
	memset(s, 0, sizeof(*s));
}

int impact_run(const struct impact_sites *s, const struct alloc_policy *policy,
	       const struct workload_config *cfg, bool patched,
	       struct sim_result *res)
{
	struct workload_config c = *cfg;
	struct stream *st = xcalloc(s->nr_groups + 1, sizeof(*st));
	size_t i;
	int rc;

	for (i = 0; i < s->nr_groups; i++)
		st[i] = patched ? s->g[i].patched : s->g[i].as_is;
	/* page cache pressure: half of all allocations, as in antifrag */
	st[i] = (struct stream){.name = "pagecache",
				.kind = SK_PAGECACHE,
				.mt = MIGRATE_MOVABLE,
				.life = LIFE_LRU,
				.weight = (double)s->nr,
				.burst_weight = (double)s->nr};
	c.kernel_version = s->kernel_version ? s->kernel_version : "6.1";
	rc = run_workload(&c, policy, st, (int)s->nr_groups + 1, res);
	free(st);
	return rc;
}
