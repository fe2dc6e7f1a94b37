// SPDX-License-Identifier: GPL-2.0
/*
 * Edit planning: turning a rule and the database's flag_uses/sites rows
 * into exact edits (line, column, token) grouped into patches.
 */
#include "patches/plan.h"
#include "db/db.h"
#include "lib/gfpmask.h"
#include "patches/subsys.h"
#include "rules/eval.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char *intern(struct plan *p, const char *s)
{
	int i;

	for (i = 0; i < p->npool; i++)
		if (!strcmp(p->pool[i], s))
			return p->pool[i];
	p->pool = xrealloc(p->pool, (size_t)(p->npool + 1) * sizeof(char *));
	p->pool[p->npool] = xstrdup(s);
	return p->pool[p->npool++];
}

static struct file_plan *file_for(struct plan *p, const char *path)
{
	struct file_plan *f;
	int i;

	for (i = p->nfiles - 1; i >= 0; i--)
		if (!strcmp(p->files[i].path, path))
			return &p->files[i];
	p->files = xrealloc(p->files, (size_t)(p->nfiles + 1) * sizeof(*f));
	f = &p->files[p->nfiles++];
	memset(f, 0, sizeof(*f));
	f->path = xstrdup(path);
	return f;
}

/* Returns 0 when an edit of that kind was already planned on the line. */
static int add_edit(struct plan *p, const char *path, struct edit e)
{
	struct file_plan *f = file_for(p, path);
	int i, new_line = 1;

	for (i = 0; i < f->n; i++) {
		if (f->e[i].line != e.line || f->e[i].kind != e.kind)
			continue;
		new_line = 0;
		if (f->e[i].col == e.col || e.kind == EDIT_DEL_DEFINE)
			return 0; /* one row per token is enough */
	}
	f->e = xrealloc(f->e, (size_t)(f->n + 1) * sizeof(e));
	f->e[f->n++] = e;
	if (e.kind == EDIT_DEL_DEFINE || e.kind == EDIT_DEL_LINE)
		f->removes_definition = 1;
	return new_line;
}

/* The gfp_t parameter to pass instead of a hard-coded flag, or NULL. */
static const char *param_for(struct plan *p, sqlite3_stmt *st, const char *path,
			     int line, const char *func, const char *flag)
{
	const char *res = NULL;

	sqlite3_reset(st);
	sqlite3_bind_text(st, 1, path, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 2, line);
	if (func)
		sqlite3_bind_text(st, 3, func, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, 3);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *flags = (const char *)sqlite3_column_text(st, 0);
		const char *param = (const char *)sqlite3_column_text(st, 1);

		if (flags && param && rule_has_word(flags, flag)) {
			res = intern(p, param);
			break;
		}
	}
	return res;
}

static void note_removed(struct plan *p, const char *flag)
{
	int i;

	for (i = 0; i < p->nremoved; i++)
		if (!strcmp(p->removed[i], flag))
			return;
	p->removed = xrealloc(p->removed,
			      (size_t)(p->nremoved + 1) * sizeof(char *));
	p->removed[p->nremoved++] = xstrdup(flag);
}

/* replace: every use of each FROM, plus the definition when asked. */
static int plan_replace(sqlite3 *db, const struct rule *r, int prefer_param,
			struct plan *p)
{
	sqlite3_stmt *st = db_prepare(
		db, "SELECT path, line, col, context, function FROM flag_uses "
		    "WHERE flag = ? ORDER BY path, line, col");
	sqlite3_stmt *ps = db_prepare(
		db, "SELECT flags, gfp_param FROM sites WHERE path = ? "
		    "AND gfp_param IS NOT NULL AND flags_line <= ?2 "
		    "AND flags_line >= ?2 - 8 AND function IS ?3 "
		    "ORDER BY flags_line DESC, flags_col DESC");
	int i, rc = 0;

	if (!st || !ps) {
		sqlite3_finalize(st);
		sqlite3_finalize(ps);
		return -1;
	}
	for (i = 0; i < r->nsubst; i++) {
		const struct rule_subst *s = &r->subst[i];
		const char *from = intern(p, s->from);
		const char *to = s->to ? intern(p, s->to) : NULL;
		int step;

		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, s->from, -1, SQLITE_STATIC);
		while ((step = sqlite3_step(st)) == SQLITE_ROW) {
			const char *path =
				(const char *)sqlite3_column_text(st, 0);
			const char *ctx =
				(const char *)sqlite3_column_text(st, 3);
			const char *fn =
				(const char *)sqlite3_column_text(st, 4);
			struct edit e = {.kind = EDIT_TOKEN,
					 .line = sqlite3_column_int(st, 1),
					 .col = sqlite3_column_int(st, 2),
					 .from = from,
					 .to = to};
			const char *param;

			if (!path || !path_is_safe_relative(path)) {
				error_msg("flag_uses: unsafe path '%s'",
					  path ? path : "(null)");
				rc = -1;
				break;
			}
			ctx = ctx ? ctx : "other";
			if (!strcmp(ctx, "declaration")) {
				if (!r->remove_definition) {
					p->skipped++;
					continue;
				}
				e.kind = EDIT_DEL_DEFINE;
				note_removed(p, s->from);
				p->definitions++;
			} else if ((!strcmp(ctx, "flag_table") ||
				    !strcmp(ctx, "string_table")) &&
				   !fn) {
				/* A file-scope flag-name table entry. */
				if (!r->remove_definition) {
					p->skipped++;
					continue;
				}
				e.kind = EDIT_DEL_LINE;
				p->tables += add_edit(p, path, e);
				continue;
			} else {
				p->uses++;
				if (prefer_param && r->prefer_param &&
				    (param = param_for(p, ps, path, e.line, fn,
						       s->from))) {
					e.to = param;
					p->via_param++;
				}
			}
			add_edit(p, path, e);
		}
		if (!rc && step != SQLITE_DONE) {
			error_msg("flag_uses: %s", sqlite3_errmsg(db));
			rc = -1;
		}
	}
	sqlite3_finalize(st);
	sqlite3_finalize(ps);
	return rc;
}

/*
 * drop: the sites the rule's match sections select; in each, the flag
 * tokens of the site's flags argument (flag_uses rows from the argument's
 * start on, as many as the argument text has).
 */
static int plan_drop(sqlite3 *db, const struct rule *r, struct plan *p)
{
	sqlite3_stmt *st = db_prepare(
		db, "SELECT flags, flags_line, flags_col, flags_via FROM sites "
		    "WHERE id = ?");
	sqlite3_stmt *us = db_prepare(
		db,
		"SELECT line, col FROM flag_uses WHERE path = ?1 AND flag = ?2 "
		"AND (line > ?3 OR (line = ?3 AND col >= ?4)) AND line <= ?3 + "
		"8 "
		"ORDER BY line, col");
	struct rule_hit *hits = NULL;
	int n, i, k, rc = 0;

	n = (st && us) ? rule_eval(db, r, &hits) : -1;
	for (i = 0; i < n; i++) {
		const char *flags;

		if (!hits[i].site_id)
			continue;
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, hits[i].site_id);
		if (sqlite3_step(st) != SQLITE_ROW)
			continue;
		flags = (const char *)sqlite3_column_text(st, 0);
		if (!flags || sqlite3_column_type(st, 3) != SQLITE_NULL ||
		    sqlite3_column_type(st, 1) == SQLITE_NULL) {
			p->skipped++; /* flags through a variable */
			continue;
		}
		for (k = 0; k < r->nsubst; k++) {
			const struct rule_subst *s = &r->subst[k];
			int want = rule_has_word(flags, s->from) ? 1 : 0;

			if (!want)
				continue;
			sqlite3_reset(us);
			sqlite3_bind_text(us, 1, hits[i].path, -1,
					  SQLITE_STATIC);
			sqlite3_bind_text(us, 2, s->from, -1, SQLITE_STATIC);
			sqlite3_bind_int(us, 3, sqlite3_column_int(st, 1));
			sqlite3_bind_int(us, 4, sqlite3_column_int(st, 2));
			if (sqlite3_step(us) == SQLITE_ROW) {
				struct edit e = {
					.kind = EDIT_TOKEN,
					.line = sqlite3_column_int(us, 0),
					.col = sqlite3_column_int(us, 1),
					.from = intern(p, s->from),
					.to = s->to ? intern(p, s->to) : NULL};

				add_edit(p, hits[i].path, e);
				p->uses++;
			} else {
				p->skipped++;
			}
		}
	}
	if (n < 0)
		rc = -1;
	rule_hits_free(hits, n > 0 ? n : 0);
	sqlite3_finalize(st);
	sqlite3_finalize(us);
	return rc;
}

/*
 * The one base mask of a suggest-param site's flags that the rule names
 * (its `flags:`), or NULL when the flags have none, several, or one the
 * rule does not name: only that token may become the parameter, the
 * modifiers and masks beside it (`__GFP_NOWARN`, `GFP_DMA`, `&
 * ~GFP_CONSTRAINT_MASK`) stay.
 */
static char *planned_mask(const struct rule *r, const char *flags)
{
	const char *p = flags, *q;
	char *mask = NULL;
	int n = 0, named = 0, k;

	while (*p) {
		if (!isalnum((unsigned char)*p) && *p != '_') {
			p++;
			continue;
		}
		/* A word: an identifier, or a number (0x10u) skipped whole. */
		for (q = p; isalnum((unsigned char)*q) || *q == '_'; q++)
			;
		if (isdigit((unsigned char)*p)) {
			p = q;
			continue;
		}
		for (k = 0; k < r->nflags; k++)
			if (strlen(r->flags[k]) == (size_t)(q - p) &&
			    !memcmp(r->flags[k], p, (size_t)(q - p)))
				break;
		if (k < r->nflags || gfp_is_base_mask(p, (size_t)(q - p))) {
			n++;
			if (k < r->nflags) {
				named++;
				free(mask);
				mask = xstrndup(p, (size_t)(q - p));
			}
		}
		p = q;
	}
	if (n != 1 || named != 1) {
		free(mask);
		return NULL;
	}
	return mask;
}

/*
 * add and suggest-param: the sites the rule's match sections select (a
 * caches row by its kmem_cache_create() site, the call at the same
 * place); in each, the flags argument as a whole.  The argument text is
 * the database's, so a tree that changed since the scan is refused when
 * the edit is applied.
 */
static int plan_args(sqlite3 *db, const struct rule *r, struct plan *p)
{
	sqlite3_stmt *st = db_prepare(
		db, "SELECT path, flags, flags_line, flags_col, flags_via, "
		    "gfp_param FROM sites WHERE id = ?");
	sqlite3_stmt *cs = db_prepare(
		db, "SELECT s.id FROM caches c JOIN sites s ON s.path = c.path "
		    "AND s.line = c.line AND s.col = c.col WHERE c.id = ? "
		    "ORDER BY s.id LIMIT 1");
	struct rule_hit *hits = NULL;
	int n, i, rc = 0;

	n = (st && cs) ? rule_eval(db, r, &hits) : -1;
	for (i = 0; i < n; i++) {
		long long id = hits[i].site_id;
		const char *path, *flags, *param;
		struct edit e = {.kind = EDIT_ARG_ADD};
		char *mask = NULL;

		if (hits[i].match->source == SRC_CACHES) {
			sqlite3_reset(cs);
			sqlite3_bind_int64(cs, 1, hits[i].row_id);
			id = sqlite3_step(cs) == SQLITE_ROW
				     ? sqlite3_column_int64(cs, 0)
				     : 0;
		}
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, id);
		if (!id || sqlite3_step(st) != SQLITE_ROW) {
			p->skipped++; /* no call recorded for the cache */
			continue;
		}
		path = (const char *)sqlite3_column_text(st, 0);
		flags = (const char *)sqlite3_column_text(st, 1);
		param = (const char *)sqlite3_column_text(st, 5);
		if (!path || !path_is_safe_relative(path)) {
			error_msg("sites: unsafe path '%s'",
				  path ? path : "(null)");
			rc = -1;
			break;
		}
		/*
		 * Flags through a variable are edited where the variable is
		 * set, which the site does not record; flags without exactly
		 * one base mask, one the rule names, have no one token the
		 * parameter replaces.
		 */
		if (!flags || sqlite3_column_type(st, 4) != SQLITE_NULL ||
		    sqlite3_column_type(st, 2) == SQLITE_NULL ||
		    (r->action == RULE_SUGGEST_PARAM &&
		     (!param || !(mask = planned_mask(r, flags))))) {
			p->skipped++;
			continue;
		}
		if (r->action == RULE_ADD && rule_has_word(flags, r->add_flag))
			continue; /* it has the flag already */
		e.line = sqlite3_column_int(st, 2);
		e.col = sqlite3_column_int(st, 3);
		e.from = intern(p, flags);
		if (r->action == RULE_SUGGEST_PARAM) {
			e.kind = EDIT_ARG_PARAM;
			e.to = intern(p, param);
			e.mask = intern(p, mask);
			free(mask);
			p->via_param++;
		} else {
			e.to = intern(p, r->add_flag);
		}
		add_edit(p, path, e);
		p->uses++;
	}
	if (n < 0)
		rc = -1;
	rule_hits_free(hits, n > 0 ? n : 0);
	sqlite3_finalize(st);
	sqlite3_finalize(cs);
	return rc;
}

int plan_build(sqlite3 *db, const struct rule *r, int prefer_param,
	       struct plan *p)
{
	memset(p, 0, sizeof(*p));
	switch (r->action) {
	case RULE_REPLACE:
		return plan_replace(db, r, prefer_param, p);
	case RULE_DROP:
		return plan_drop(db, r, p);
	case RULE_ADD:
	case RULE_SUGGEST_PARAM:
		return plan_args(db, r, p);
	default:
		error_msg("rule %s is '%s': it reports, it writes no patches "
			  "(run 'gfpaudit rules --run %s')",
			  r->name, rule_action_name(r->action), r->name);
		return -1;
	}
}

static int group_of(struct plan *p, const char *key, int last)
{
	int i;

	for (i = 0; i < p->ngroups; i++)
		if (!strcmp(p->groups[i].key, key) && p->groups[i].last == last)
			return i;
	p->groups = xrealloc(p->groups,
			     (size_t)(p->ngroups + 1) * sizeof(*p->groups));
	p->groups[p->ngroups].key = xstrdup(key);
	p->groups[p->ngroups].prefix = NULL;
	p->groups[p->ngroups].last = last;
	return p->ngroups++;
}

static int cmp_file(const void *a, const void *b)
{
	const struct file_plan *x = a, *y = b;

	return strcmp(x->path, y->path);
}

static int cmp_group(const void *a, const void *b)
{
	const struct plan_group *x = a, *y = b;

	if (x->last != y->last)
		return x->last - y->last;
	return strcmp(x->key, y->key);
}

void plan_group(struct plan *p, enum split_mode mode, const char *tree,
		int tree_is_git)
{
	const char **paths;
	int i, k;

	if (p->nfiles)
		qsort(p->files, (size_t)p->nfiles, sizeof(*p->files), cmp_file);
	for (i = 0; i < p->nfiles; i++) {
		struct file_plan *f = &p->files[i];

		f->subsys = subsys_key(f->path);
		/*
		 * The definition goes in a patch of its own, after every
		 * user is converted, so each step of the series builds.
		 */
		if (mode == SPLIT_ONE)
			group_of(p, "all", 0);
		else if (f->removes_definition)
			group_of(p, "definition", 1);
		else
			group_of(p, mode == SPLIT_FILE ? f->path : f->subsys,
				 0);
	}
	if (p->ngroups)
		qsort(p->groups, (size_t)p->ngroups, sizeof(*p->groups),
		      cmp_group);
	for (i = 0; i < p->nfiles; i++) {
		struct file_plan *f = &p->files[i];
		const char *key = mode == SPLIT_ONE	  ? "all"
				  : f->removes_definition ? "definition"
				  : mode == SPLIT_FILE	  ? f->path
							  : f->subsys;

		for (k = 0; k < p->ngroups; k++)
			if (!strcmp(p->groups[k].key, key) &&
			    p->groups[k].last == (mode != SPLIT_ONE &&
						  f->removes_definition))
				f->group = k;
	}
	paths = xcalloc((size_t)p->nfiles + 1, sizeof(*paths));
	for (k = 0; k < p->ngroups; k++) {
		struct plan_group *g = &p->groups[k];
		char *key;
		int n = 0;

		if (g->last) {
			g->prefix = xstrdup("mm");
			continue;
		}
		if (!strcmp(g->key, "all")) {
			g->prefix = xstrdup("treewide");
			continue;
		}
		for (i = 0; i < p->nfiles; i++)
			if (p->files[i].group == k)
				paths[n++] = p->files[i].path;
		key = mode == SPLIT_FILE ? subsys_key(g->key) : xstrdup(g->key);
		g->prefix = subsys_prefix(tree, tree_is_git, key, paths, n);
		free(key);
	}
	free(paths);
}

void plan_free(struct plan *p)
{
	int i;

	for (i = 0; i < p->nfiles; i++) {
		free(p->files[i].path);
		free(p->files[i].e);
		free(p->files[i].subsys);
	}
	free(p->files);
	for (i = 0; i < p->ngroups; i++) {
		free(p->groups[i].key);
		free(p->groups[i].prefix);
	}
	free(p->groups);
	for (i = 0; i < p->nremoved; i++)
		free(p->removed[i]);
	free(p->removed);
	for (i = 0; i < p->npool; i++)
		free(p->pool[i]);
	free(p->pool);
	memset(p, 0, sizeof(*p));
}
