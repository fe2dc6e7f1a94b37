// SPDX-License-Identifier: GPL-2.0
/*
 * The `caches` table: one row per kmem_cache_create()/KMEM_CACHE() call,
 * with whether the cache claims to be reclaimable (its flags evaluate to
 * the reclaimable migratetype: SLAB_RECLAIM_ACCOUNT, SLAB_TEMPORARY) and
 * whether the file registers a reclaimer (data/lifetime.txt `reclaim`
 * names: register_shrinker(), shrinker_alloc(), list_lru users, the
 * super_operations nr_cached_objects/free_cached_objects hooks) and frees
 * objects of that cache (kmem_cache_free(cache, ...)).
 *
 * A driver often creates its caches in one file and shrinks them in
 * another (gfs2: main.c creates gfs2_glock_cachep, glock.c's shrinker
 * frees it), so each file also records its reclaimer and the cache
 * variables it frees (`file_facts`), and the link step, once the tree is
 * in the database, marks a cache shrunk (shrinker_scope 'directory') when
 * a file of its directory frees the cache's variable and either has a
 * reclaimer or frees it in a function a reclaim hook of the directory
 * names (see shrinker_link()).
 */
#include "analyzer/analyzer.h"
#include "analyzer/ast.h"
#include "analyzer/lexscan.h"
#include "analyzer/owner.h"
#include "analyzer/owner_lex.h"
#include "analyzer/tables.h"
#include "analyzer/walker.h"
#include "db/db.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

static int tok_is(const struct lexfile *lf, size_t i, const char *s)
{
	return i < lf->ntoks &&
	       mem_is(lf->buf + lf->toks[i].off, lf->toks[i].len, s) &&
	       lf->toks[i].kind != TK_COMMENT;
}

/* The last token of a (possibly dotted/arrowed) cache expression. */
static const char *last_name(const char *var)
{
	const char *p = var + strlen(var);

	while (p > var && is_ident_char((unsigned char)p[-1]))
		p--;
	return p;
}

/*
 * Is token J, the whole cache argument of a kmem_cache_free(), a
 * parameter of its function (`free_stripe(struct kmem_cache *sc, ...)`)?
 * Such a free frees from whichever cache its callers pass.
 */
static int param_tok(const struct lexfile *lf, size_t j)
{
	const struct lex_func *f;
	size_t k;

	if (lf->toks[j].fn < 0 || j < 2 || !tok_is(lf, j - 1, "(") ||
	    lf->toks[j].kind != TK_IDENT)
		return 0;
	f = &lf->funcs[lf->toks[j].fn];
	for (k = f->name_tok + 1; k < f->body_open; k++)
		if (lex_same_tok(lf, (long)k, (long)j))
			return 1;
	return 0;
}

/*
 * A reclaimer in the file, and a kmem_cache_free() of VAR (its last
 * identifier; any cache when VAR is NULL).  Evidence into SB.
 */
static int find_reclaimer(struct walk_ctx *w, const char *var,
			  struct strbuf *sb)
{
	const struct lexfile *lf = w->lf;
	const char *name = var ? last_name(var) : NULL;
	unsigned reclaim_line = 0, free_line = 0;
	const char *reclaim = NULL;
	size_t i, rlen = 0, via = 0;

	for (i = 0; i < lf->ntoks; i++) {
		const struct tok *t = &lf->toks[i];

		if (t->kind != TK_IDENT || t->disabled)
			continue;
		if (!reclaim && names_get(&w->lifetime[LT_RECLAIM],
					  lf->buf + t->off, t->len) >= 0) {
			reclaim = lf->buf + t->off;
			rlen = t->len;
			reclaim_line = t->line;
		}
		if (!free_line && tok_is(lf, i, "kmem_cache_free") &&
		    tok_is(lf, i + 1, "(")) {
			size_t j = i + 2, end = i + 2;

			/* the first argument: up to the first ',' */
			while (end < lf->ntoks && !tok_is(lf, end, ",") &&
			       !tok_is(lf, end, ";"))
				end++;
			for (; j < end; j++)
				if (!name || tok_is(lf, j, name))
					free_line = t->line;
				else if (j + 1 == end && param_tok(lf, j))
					free_line = t->line, via = j;
		}
	}
	if (!reclaim || !free_line)
		return 0;
	if (via)
		sb_addf(sb, "%.*s at line %u, kmem_cache_free(%.*s) of a "
			"parameter at line %u", (int)rlen, reclaim,
			reclaim_line, (int)lf->toks[via].len,
			lf->buf + lf->toks[via].off, free_line);
	else
		sb_addf(sb, "%.*s at line %u, kmem_cache_free(%s) at line %u",
			(int)rlen, reclaim, reclaim_line, name ? name : "...",
			free_line);
	return 1;
}

/* Token index of the cache argument of a kmem_cache_free*() call at I. */
static size_t free_cache_arg(const struct lexfile *lf, size_t i)
{
	if ((tok_is(lf, i, "kmem_cache_free") ||
	     tok_is(lf, i, "kmem_cache_free_bulk")) &&
	    tok_is(lf, i + 1, "(") && i + 3 < lf->ntoks &&
	    lf->toks[i + 2].kind == TK_IDENT && tok_is(lf, i + 3, ","))
		return i + 2;
	return 0;
}

static void emit_tok_fact(struct walk_ctx *w, const char *kind, size_t i,
			  size_t at)
{
	const struct lexfile *lf = w->lf;
	int fn = lf->toks[at].fn;
	char *name = xstrndup(lf->buf + lf->toks[i].off, lf->toks[i].len);

	emit_fact(w, kind, name, fn >= 0 ? lf->funcs[fn].name : NULL,
		  lf->toks[at].line);
	free(name);
}

/*
 * The file's facts for the link step: its first reclaimer; the functions
 * it hands to a reclaim hook (`.free_inode = foo_free_inode`,
 * `.scan_objects = foo_scan`), which the shrinker calls wherever they are
 * defined, and to a member through which reclaim tears objects down
 * (`evict` names: `.evict_inode = foo_evict_inode`); and, once per
 * function, the plain variables it passes to kmem_cache_free() as the
 * cache, with the function doing it.
 */
static void shrinker_tu_end(struct walk_ctx *w)
{
	const struct lexfile *lf = w->lf;
	struct name_set seen;
	int reclaimer = 0;
	size_t i, a;
	char *key;

	if (!lf || !w->lifetime)
		return;
	names_init(&seen);
	for (i = 0; i < lf->ntoks; i++) {
		const struct tok *t = &lf->toks[i];

		if (t->kind != TK_IDENT || t->disabled)
			continue;
		if (names_get(&w->lifetime[LT_RECLAIM], lf->buf + t->off,
			      t->len) >= 0) {
			if (!reclaimer)
				emit_tok_fact(w, "reclaimer", i, i);
			reclaimer = 1;
			if (tok_is(lf, i + 1, "=") && i + 2 < lf->ntoks &&
			    lf->toks[i + 2].kind == TK_IDENT)
				emit_tok_fact(w, "reclaim_hook", i + 2, i);
		}
		if (names_get(&w->lifetime[LT_EVICT], lf->buf + t->off,
			      t->len) >= 0 &&
		    tok_is(lf, i + 1, "=") && i + 2 < lf->ntoks &&
		    lf->toks[i + 2].kind == TK_IDENT)
			emit_tok_fact(w, "evict_hook", i + 2, i);
		a = free_cache_arg(lf, i);
		if (!a)
			continue;
		/* once per cache and function: the reclaim paths need each */
		key = xasprintf("%.*s %s", (int)lf->toks[a].len,
				lf->buf + lf->toks[a].off,
				lf->toks[i].fn >= 0
					? lf->funcs[lf->toks[i].fn].name
					: "");
		if (names_get(&seen, key, strlen(key)) < 0) {
			names_put(&seen, key, strlen(key), 1);
			emit_tok_fact(w, "cache_free", a, i);
		}
		free(key);
	}
	names_free(&seen);
}

/*
 * The link step: a cache not shrunk in its own file is shrunk when a
 * file of its directory frees the cache's variable and either has a
 * reclaimer itself or frees it in a function that a reclaim hook of the
 * directory names (`.free_inode = v9fs_free_inode` in vfs_super.c, the
 * kmem_cache_free() in vfs_inode.c).  The first such free by path is the
 * evidence.  Every directory-scope answer is recomputed (a re-scan may
 * have removed a file's shrinker).  DIR_OF(x) is x's directory with its
 * '/', as file_facts.dir holds it.
 */
#define DIR_OF(x) "rtrim(" x ", replace(" x ", '/', ''))"
#define SHRINKING_FREE                                                      \
	" FROM file_facts c JOIN files f ON f.id = c.file_id"               \
	" JOIN file_facts r ON r.dir = c.dir AND"                          \
	" ((r.kind = 'reclaimer' AND r.file_id = c.file_id) OR"            \
	"  (r.kind = 'reclaim_hook' AND r.name = c.function))"             \
	" JOIN files rf ON rf.id = r.file_id"                              \
	" WHERE c.kind = 'cache_free' AND c.name = caches.variable AND"    \
	" c.dir = " DIR_OF("caches.path")
int shrinker_link(sqlite3 *db)
{
	return db_exec(db,
		"UPDATE caches SET has_shrinker = 0, shrinker_evidence = NULL,"
		" shrinker_scope = NULL WHERE shrinker_scope = 'directory';"
		"UPDATE caches SET has_shrinker = 1, shrinker_scope = 'directory',"
		" shrinker_evidence = (SELECT r.name || CASE r.kind WHEN"
		"  'reclaim_hook' THEN ' as a reclaim hook' ELSE '' END || ' at ' ||"
		"  rf.path || ':' || r.line || ', kmem_cache_free(' || c.name ||"
		"  ') at ' || f.path || ':' || c.line" SHRINKING_FREE
		"  ORDER BY f.path, c.line, rf.path, r.line LIMIT 1)"
		" WHERE has_shrinker = 0 AND variable IS NOT NULL AND"
		" EXISTS (SELECT 1" SHRINKING_FREE ");");
}

/* The string literal naming the cache, as written (first argument). */
static char *cache_name(struct walk_ctx *w, const struct site *s)
{
	const struct lexfile *lf = w->lf;
	size_t i;

	for (i = 0; i + 2 < lf->ntoks; i++) {
		const struct tok *t = &lf->toks[i];

		if (t->line != s->line || t->col != s->col)
			continue;
		if (tok_is(lf, i + 1, "(") &&
		    lf->toks[i + 2].kind == TK_LITERAL &&
		    lf->buf[lf->toks[i + 2].off] == '"')
			return xstrndup(lf->buf + lf->toks[i + 2].off + 1,
					lf->toks[i + 2].len - 2);
		/* KMEM_CACHE(struct_name, flags): named after the struct */
		if (tok_is(lf, i + 1, "(") && lf->toks[i + 2].kind == TK_IDENT)
			return xstrndup(lf->buf + lf->toks[i + 2].off,
					lf->toks[i + 2].len);
		break;
	}
	return NULL;
}

static void shrinker_site(struct walk_ctx *w, struct site *s, CXCursor call,
			  CXCursor fn)
{
	const struct alloc_fn *a =
		w->allocs ? alloc_lookup(w->allocs, s->api, strlen(s->api))
			  : NULL;
	const struct owner *o;
	struct strbuf sb = STRBUF_INIT;
	char *name;
	int has;

	/* A #define body (KMEM_CACHE's own) is not a cache. */
	if (!a || a->kind != AK_CACHE_CREATE || !w->lf || !w->lifetime ||
	    s->in_disabled_branch || (s->macro && !s->function))
		return;
	o = owner_of(w, s, call, fn);
	has = find_reclaimer(w, o ? o->target : NULL, &sb);
	name = cache_name(w, s);
	emit_cache(w, s->line, s->col, o ? o->target : NULL, name, s->flags,
		   (s->migratetype && !strcmp(s->migratetype, "reclaimable")) ||
			   text_mentions(s->flags, "SLAB_RECLAIM_ACCOUNT") ||
			   text_mentions(s->flags, "SLAB_TEMPORARY"),
		   has, has ? sb.buf : NULL);
	free(name);
	sb_release(&sb);
}

/* Files that only free a cache's objects are still worth reading. */
static const char *const shrinker_interesting[] = {
	"kmem_cache_free", "kmem_cache_free_bulk", NULL
};

/* listed in analyzer/check_list.h */
const struct classifier shrinker_classifier = {
	.name = "caches",
	.site = shrinker_site,
	.tu_end = shrinker_tu_end,
	.link = shrinker_link,
	.interesting = shrinker_interesting,
};

