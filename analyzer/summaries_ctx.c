// SPDX-License-Identifier: GPL-2.0
/*
 * Atomic context from the callers (summaries.h): a function whose every
 * caller in the tree calls it inside an atomic section (data/atomic.txt,
 * as fnsum.c reads it), or is itself such a function, runs in atomic
 * context; a site there that the function alone left `unknown` (no
 * section in view, and GFP_ATOMIC or the caller's flags; or an irq
 * handler its file does not register) is `atomic`,
 * the caller as evidence.  A site the function left `unknown` only
 * because its flags do not allow direct reclaim (no section in view) is
 * `atomic` too when some caller calls the function in an atomic section
 * or runs in one (`a caller calls it in an atomic section (...)`): flags
 * that do not sleep and a caller that must not, as readers label a
 * function called from an irq handler and from init alike; not when the
 * site ignores the function's own gfp_t (sites.gfp_param): there the
 * callers' flags, not their sections, are the question (the gfp-param
 * rule's).  A function nobody calls by name (a callback
 * through a pointer) gets its context from its registration instead:
 * one handed to a data/atomic.txt `callback` call (request_irq(),
 * timer_setup(), netif_napi_add(), call_rcu(), ...) in any file of the
 * tree runs in atomic context, a root of the fixpoint, so its callees
 * called from nowhere else are atomic too.  The TU alone sees only the
 * registrations of the file that defines the function; a driver's
 * handlers are often defined in one file and registered in another.
 * One handed to a `thread` registration anywhere (a threaded irq
 * handler) runs in process context and is no root.
 *
 * A site left `process` (flags that may sleep, no section in view) in
 * a function that runs in atomic context is `atomic`: a sleeping
 * allocation every path to which holds a caller's lock (the
 * sleep-in-atomic rule's finding across functions).  Read from text,
 * "every caller holds a lock" would miss a callee that drops the lock
 * around its allocation (`spin_unlock(); kmalloc(..., GFP_KERNEL);
 * spin_lock();`), and early boot's irqs-off start_kernel(): on 6.1
 * nearly all of the 77 findings this made before were of these.  So
 * what a function does after it closes a section it did not open
 * (functions.drop_line, unlocked_callees) is not atomic by its callers,
 * and a chain of callers through an __init function is early boot
 * (functions.is_init): atomic, but with `__init` in the evidence, which
 * the sleep-in-atomic rule leaves out (reclaim is masked then, and
 * might_sleep() does not check).  One caller that calls it
 * in a section (or runs in atomic context, not only while booting) is
 * enough: on its path the site sleeps in atomic context.  Not when the
 * path picks the flags (a condition in them, or a GFP_ATOMIC allocation
 * beside it in the function): the callers' sections may be what picks
 * the ones that do not sleep.
 */
#include "analyzer/summaries_int.h"
#include "analyzer/fnsum.h"
#include "analyzer/summaries.h"
#include "db/db.h"

#include <stdlib.h>
#include <string.h>

#define MAX_ROUNDS 32

int summaries_in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while (p && (p = strstr(p, name))) {
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return 1;
		p += n;
	}
	return 0;
}

/* A registration of a FACT_CALLBACKS list, `KIND:NAME:API:LINE`. */
struct reg {
	long long file_id;
	const char *path;
	const char *kind, *name, *api, *line;
	size_t kn, nn, an, ln;
};

static int split_reg(const char *p, size_t n, struct reg *r)
{
	const char *f[4], *e = p + n;
	size_t len[4];
	int k;

	for (k = 0; k < 4; k++) {
		const char *c = k < 3 ? memchr(p, ':', (size_t)(e - p)) : e;

		if (!c)
			return -1;
		f[k] = p;
		len[k] = (size_t)(c - p);
		p = c + 1;
	}
	r->kind = f[0], r->kn = len[0];
	r->name = f[1], r->nn = len[1];
	r->api = f[2], r->an = len[2];
	r->line = f[3], r->ln = len[3];
	return 0;
}

static int is_kind(const struct reg *r, int kind)
{
	return strlen(atomic_kinds[kind]) == r->kn &&
	       !memcmp(r->kind, atomic_kinds[kind], r->kn);
}

/*
 * Apply the registrations of KIND: a `thread` one marks every definition
 * its name reaches from the registering file, a `callback` one makes
 * those not marked so atomic.  Of several global definitions (two
 * drivers' `survey_timer_hdl`, per-arch variants) those nearest the
 * registering file count: a module links against its own.
 */
static void apply_regs(struct graph *g, const struct reg *regs, size_t n,
		       int kind)
{
	size_t i, best;
	int j, first;

	for (i = 0; i < n; i++) {
		const struct reg *r = &regs[i];

		if (!is_kind(r, kind))
			continue;
		first = summaries_resolve(g, r->file_id, r->name, r->nn);
		best = 0;
		FOR_EACH_DEF(g, j, first)
		if (summaries_shared_dirs(g->f[j].path, r->path) > best)
			best = summaries_shared_dirs(g->f[j].path, r->path);
		FOR_EACH_DEF(g, j, first)
		{
			struct fn *f = &g->f[j];

			if (summaries_shared_dirs(f->path, r->path) < best)
				continue;
			if (kind == AT_THREAD) {
				f->thread = 1;
			} else if (!f->thread && !f->actx_reg) {
				/* `.ndo_start_xmit`: a member assigned */
				char *ev = xasprintf(
					*r->api == '.'
						? "assigned to %.*s at %s:%.*s"
						: "registered with %.*s() at "
						  "%s:%.*s",
					(int)r->an, r->api, r->path,
					(int)r->ln, r->line);

				f->actx = 1;
				f->actx_via = -1;
				f->actx_reg = summaries_strdup(g, ev);
				f->boot = kind == AT_BOOT;
				free(ev);
			}
		}
	}
}

int summaries_ctx_roots(sqlite3 *db, struct graph *g)
{
	sqlite3_stmt *st = db_prepare(
		db, "SELECT c.file_id, f.path, c.function FROM file_facts c"
		    " JOIN files f ON f.id = c.file_id"
		    " WHERE c.kind = '" FACT_CALLBACKS "'"
		    " AND c.function IS NOT NULL ORDER BY f.path");
	struct reg *regs = NULL;
	size_t n = 0, cap = 0;
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long long fid = sqlite3_column_int64(st, 0);
		const char *path = summaries_strdup(
			g, (const char *)sqlite3_column_text(st, 1));
		const char *p = summaries_strdup(
			g, (const char *)sqlite3_column_text(st, 2));

		while (*p) {
			size_t len = strcspn(p, " ");

			if (n == cap) {
				cap = cap ? cap * 2 : 1024;
				regs = xrealloc(regs, cap * sizeof(*regs));
			}
			if (!split_reg(p, len, &regs[n])) {
				regs[n].file_id = fid;
				regs[n++].path = path;
			}
			p += len + (p[len] == ' ');
		}
	}
	sqlite3_finalize(st);
	/* threaded handlers first: process context wherever registered */
	apply_regs(g, regs, n, AT_THREAD);
	apply_regs(g, regs, n, AT_CALLBACK);
	apply_regs(g, regs, n, AT_BOOT);
	free(regs);
	return rc == SQLITE_DONE ? 0 : -1;
}

/*
 * Does J run in atomic context only through an __init function (itself,
 * or a caller its atomic context comes from), or a function a boot table
 * names (data/atomic.txt `boot`)?  Early boot: see fnsum.h's is_init.
 * That function's index + 1, else 0.
 */
static int boot_chain(const struct graph *g, int j)
{
	int n;

	for (n = 0; j >= 0 && n < 64; n++) {
		if (g->f[j].is_init || g->f[j].boot)
			return j + 1;
		if (g->f[j].actx_reg)
			return 0;
		j = g->f[j].actx_via;
	}
	return 0;
}

/*
 * A caller of J that calls it in an atomic section or runs in one, the
 * first by path and line; with EVERY, only when every caller does.
 * Else -1.  A caller that drops its own caller's lock runs in atomic
 * context only up to the drop: what it calls then
 * (functions.unlocked_callees) is not called in atomic context.  With
 * AWAKE, callers that run only while the kernel boots (boot_chain())
 * are not atomic ones.
 */
static int atomic_caller(const struct graph *g, int j, int every, int awake)
{
	int k, first = -1;

	for (k = g->rev_start[j]; k < g->rev_start[j + 1]; k++) {
		const struct fn *c = &g->f[g->rev[k]];

		int held = summaries_in_list(c->atomic_callees, g->f[j].name) ||
			   (c->actx && !summaries_in_list(c->unlocked_callees,
							  g->f[j].name));

		if (!held || (awake && boot_chain(g, g->rev[k]))) {
			if (every)
				return -1;
			continue;
		}
		if (first < 0 || g->rev[k] < first)
			first = g->rev[k];
	}
	return first;
}

void summaries_solve_ctx(struct graph *g)
{
	int changed = 1, round, via;
	size_t j;

	/* grows only: callers that turn atomic can make their callees so */
	for (round = 0; changed && round < MAX_ROUNDS; round++) {
		changed = 0;
		for (j = 0; j < g->n; j++)
			if (!g->f[j].actx &&
			    (via = atomic_caller(g, (int)j, 1, 0)) >= 0) {
				g->f[j].actx = 1;
				g->f[j].actx_via = via;
				changed = 1;
			}
	}
}

/*
 * The callers J's atomic context comes through, up to the one that holds
 * the section or is registered as a callback: `a() <- b() <- c() in an
 * atomic section` (at most MAX_CHAIN).
 */
static void ctx_chain(const struct graph *g, int j, struct strbuf *sb)
{
	int n, k;

	for (n = 0; j >= 0 && n < MAX_CHAIN; n++) {
		const struct fn *f = &g->f[j];

		sb_addf(sb, "%s%s()", n ? " <- " : "", f->name);
		if (f->actx_reg) {
			sb_addf(sb, " %s", f->actx_reg);
			return;
		}
		k = f->actx_via;
		if (k >= 0 && summaries_in_list(g->f[k].atomic_callees,
						f->name)) {
			sb_addf(sb, " <- %s() in an atomic section",
				g->f[k].name);
			return;
		}
		j = k;
	}
	sb_addf(sb, " <- ...");
}

/*
 * A sleeping site's evidence when one caller, VIA, makes it atomic: on
 * that path it sleeps in atomic context, as a sleep-in-atomic bug.
 */
static char *caller_evidence(const struct graph *g, int j, int via)
{
	struct strbuf sb = STRBUF_INIT;
	char *chain, *ev;

	if (summaries_in_list(g->f[via].atomic_callees, g->f[j].name))
		return xasprintf("a caller calls it in an atomic section "
				 "(%s() in %s)",
				 g->f[via].name, g->f[via].path);
	ctx_chain(g, via, &sb);
	chain = sb_detach(&sb);
	ev = xasprintf("a caller runs in atomic context (%s() in %s): %s() "
		       "<- %s",
		       g->f[via].name, g->f[via].path, g->f[j].name, chain);
	free(chain);
	return ev;
}

/* The evidence: the caller, and why it is atomic there. */
static char *ctx_evidence(const struct graph *g, int j)
{
	struct strbuf sb = STRBUF_INIT;
	const struct fn *c;
	char *chain, *ev;

	if (g->f[j].actx_reg)
		return xstrdup(g->f[j].actx_reg);
	c = &g->f[g->f[j].actx_via];
	if (summaries_in_list(c->atomic_callees, g->f[j].name))
		return xasprintf("every caller calls it in an atomic section "
				 "(%s() in %s)",
				 c->name, c->path);
	ctx_chain(g, j, &sb);
	chain = sb_detach(&sb);
	ev = xasprintf("every caller runs in atomic context (%s() in %s): %s",
		       c->name, c->path, chain);
	free(chain);
	return ev;
}

static int set_ctx(sqlite3_stmt *up, long long id, const char *ctx,
		   const char *ev, int keep_base)
{
	int rc;

	sqlite3_bind_int64(up, 1, id);
	sqlite3_bind_text(up, 2, ctx, -1, SQLITE_TRANSIENT);
	if (ev)
		sqlite3_bind_text(up, 3, ev, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(up, 3);
	sqlite3_bind_int(up, 4, keep_base);
	rc = sqlite3_step(up) == SQLITE_DONE ? 0 : -1;
	sqlite3_reset(up);
	return rc;
}

/*
 * A site whose flags are those its function sleeps by (the text of the
 * allocation functions.gfp_sleeps names): its function's gfp_t
 * parameter.
 */
#define BY_PARAM                                                              \
	"EXISTS (SELECT 1 FROM functions f JOIN sites s2"                     \
	" ON s2.file_id = f.file_id AND s2.function = f.name"                 \
	" WHERE f.file_id = sites.file_id AND f.name = sites.function"        \
	" AND f.gfp_sleeps IS NOT NULL AND s2.flags = sites.flags"            \
	" AND s2.line = CAST(substr(f.gfp_sleeps,"                            \
	" instr(f.gfp_sleeps, ' at line ') + 9) AS INTEGER))"

/* c, a site calling the function of `sites` (in its file if static) */
#define CALL_OF                                                               \
	"c.api = sites.function AND (c.file_id = sites.file_id OR"            \
	" NOT EXISTS (SELECT 1 FROM functions f WHERE"                        \
	" f.file_id = sites.file_id AND f.name = sites.function"              \
	" AND f.is_static))"

/* `process`, the function's own answer kept as the base; then the evidence */
#define SET_PROCESS                                                           \
	"UPDATE sites SET context_base = coalesce(context_base,"              \
	" json_array(context, context_evidence)), context = 'process',"       \
	" context_evidence = "

/*
 * Does a definition of NAME that a call from FILE_ID may reach sleep:
 * the file's own static, or any global one?  From the graph just
 * solved, the answers the functions table has just been given: the
 * same question in SQL read every row of that table for each site
 * asked about (1.8 s of a whole 6.1 scan).
 */
static int def_sleeps(const struct graph *g, long long file_id,
		      const char *name)
{
	size_t len = strlen(name);
	int j;

	for (j = summaries_static_def(g, file_id, name, len); j >= 0;
	     j = g->f[j].next)
		if (g->f[j].may)
			return 1;
	for (j = names_get(&g->global, name, len); j >= 0; j = g->f[j].next)
		if (g->f[j].may)
			return 1;
	return 0;
}

/* def_sleeps() as SQL: gfpaudit_def_sleeps(name, file_id). */
static void def_sleeps_sql(sqlite3_context *cx, int argc, sqlite3_value **v)
{
	const struct graph *g = sqlite3_user_data(cx);
	const unsigned char *name = sqlite3_value_text(v[0]);

	(void)argc;
	sqlite3_result_int(cx, name && def_sleeps(g, sqlite3_value_int64(v[1]),
						 (const char *)name));
}

/*
 * The same for an allocator of the tree's (a learned wrapper): its
 * callers' calls are sites, so when every call of it (in its own file,
 * for a static one) is placed in process context, so is the site.
 * Rounds, for wrappers of wrappers; after summaries_update_ctx() has
 * given back the bases, so that a re-scan starts from them.
 */
static int ctx_from_call_sites(sqlite3 *db, const struct graph *g)
{
	static const char sql[] =
		SET_PROCESS "'the flags are its caller''s, and every"
		" call of it is in process context (' || (SELECT c.function ||"
		" '() in ' || c.path FROM sites c WHERE " CALL_OF
		" ORDER BY c.path, c.line LIMIT 1) || ')' "
		"WHERE context = 'unknown' AND function IS NOT NULL"
		" AND context_evidence LIKE '" CTX_EV_NO_SECTION "%'"
		" AND EXISTS (SELECT 1 FROM allocators a WHERE a.name ="
		"  sites.function AND a.origin = 'learned' AND a.kind = 'alloc')"
		" AND " BY_PARAM
		" AND EXISTS (SELECT 1 FROM sites c WHERE " CALL_OF ")"
		" AND NOT EXISTS (SELECT 1 FROM sites c WHERE " CALL_OF
		"  AND (c.context != 'process' OR c.flags LIKE '%?%' OR"
		"  c.flags LIKE '%GFP_ATOMIC%' OR c.flags LIKE '%GFP_NOWAIT%'))";
	/*
	 * No flags of its own (`bpf_prog_alloc(size, 0)`,
	 * `__filemap_get_folio(mapping, index, fgp, 0)`: extra flags, or
	 * the mapping's): the allocator's own decide, and one that may sleep
	 * (a learned sleeper, or the summaries' "may sleep") is called
	 * where sleeping is allowed, as a data/sleepers.txt one is.
	 */
	static const char zero[] =
		SET_PROCESS "api || '() may sleep whatever its flags'"
		" || coalesce(' (' || (SELECT l.evidence FROM sleepers l"
		"  WHERE l.function = sites.api LIMIT 1) || ')', '') "
		"WHERE context = 'unknown' AND function IS NOT NULL"
		" AND context_evidence LIKE '" CTX_EV_NO_SECTION ", and 0 %'"
		" AND (EXISTS (SELECT 1 FROM sleepers l WHERE"
		"  l.function = sites.api) OR"
		"  gfpaudit_def_sleeps(sites.api, sites.file_id))";
	int round, rc;

	for (round = 0; round < MAX_CHAIN; round++) {
		if (db_exec(db, sql))
			return -1;
		if (!sqlite3_changes(db))
			break;
	}
	if (sqlite3_create_function(db, "gfpaudit_def_sleeps", 2, SQLITE_UTF8,
				    (void *)g, def_sleeps_sql, NULL,
				    NULL) != SQLITE_OK)
		return -1;
	rc = db_exec(db, zero);
	sqlite3_create_function(db, "gfpaudit_def_sleeps", 2, SQLITE_UTF8,
				NULL, NULL, NULL, NULL);
	return rc ? -1 : 0;
}

/*
 * Sites the function alone could not place: `unknown` because of the
 * flags only, or in an irq handler its file does not register (primary
 * or threaded: a registration elsewhere says which); and `process` ones
 * (flags that may sleep) in a function that runs in atomic context.
 * context_base keeps
 * that answer while the summaries override it, so that the next solve
 * can give it back when a caller or a registration changed.
 */
int summaries_update_ctx(sqlite3 *db, const struct graph *g)
{
	sqlite3_stmt *sel = db_prepare(
		db,
		"SELECT id, file_id, function,"
		" coalesce(json_extract(context_base, '$[0]'), context),"
		" CASE WHEN context_base IS NULL THEN context_evidence"
		" ELSE json_extract(context_base, '$[1]') END,"
		" context_base IS NOT NULL, gfp_param IS NULL,"
		/*
		 * its flags are those the function sleeps by (the text of
		 * the allocation functions.gfp_sleeps names): a parameter's
		 */
		" " BY_PARAM ", line,"
		/*
		 * flags chosen by the path: a condition in them, or another
		 * allocation of the function's with flags that do not sleep
		 * (`if (nofail) return kmalloc(n, GFP_KERNEL | __GFP_NOFAIL);
		 * return kmalloc(n, GFP_ATOMIC);`)
		 */
		" coalesce(flags_resolved, flags, '') LIKE '%?%' OR EXISTS"
		" (SELECT 1 FROM sites s2 WHERE s2.file_id = sites.file_id"
		"  AND s2.function = sites.function AND (s2.flags LIKE"
		"  '%GFP_ATOMIC%' OR s2.flags LIKE '%GFP_NOWAIT%'))"
		" FROM sites "
		"WHERE function IS NOT NULL AND (context_base IS NOT NULL OR"
		" (context = 'unknown' AND"
		" (context_evidence LIKE '" CTX_EV_NO_SECTION "%' OR"
		" context_evidence LIKE '" CTX_EV_IRQ_ELSEWHERE "%')) OR"
		" (context = 'process' AND context_evidence IS NULL))");
	/* ?4: 1 override (keep or set the base), 0 give the base back */
	sqlite3_stmt *up = db_prepare(
		db, "UPDATE sites SET context_base = CASE WHEN ?4 THEN"
		    " coalesce(context_base, json_array(context,"
		    " context_evidence)) END, context = ?2,"
		    " context_evidence = ?3 WHERE id = ?1");
	int rc = (!sel || !up) ? -1 : 0, step = SQLITE_DONE, via, boot;
	unsigned char *memo = xcalloc(g->n + 1, 1);

	while (!rc && (step = sqlite3_step(sel)) == SQLITE_ROW) {
		long long id = sqlite3_column_int64(sel, 0);
		const char *fn = (const char *)sqlite3_column_text(sel, 2);
		const char *base = (const char *)sqlite3_column_text(sel, 3);
		const char *base_ev = (const char *)sqlite3_column_text(sel, 4);
		int overridden = sqlite3_column_int(sel, 5);
		int j = summaries_def_in(g, sqlite3_column_int64(sel, 1), fn,
					  strlen(fn));

		/* a base other than the callers' `unknown`: give it back */
		int eligible = !strcmp(base, "unknown") && base_ev &&
			       (str_has_prefix(base_ev, CTX_EV_NO_SECTION) ||
				str_has_prefix(base_ev, CTX_EV_IRQ_ELSEWHERE));

		/* flags that may sleep, no section in the function */
		int sleeping = !strcmp(base, "process") && !base_ev;

		/*
		 * a condition picks its flags (`atomic ? GFP_ATOMIC :
		 * GFP_KERNEL`): the callers' sections may be what picks
		 * GFP_ATOMIC, so they say nothing of the site (readers
		 * answer `unknown`)
		 */
		if (eligible && str_has_prefix(base_ev, CTX_EV_PATH_PICKS))
			eligible = 0;

		/* the caller's section is not held past the drop */
		if (j >= 0 && g->f[j].drop_line &&
		    sqlite3_column_int(sel, 8) >= g->f[j].drop_line)
			eligible = sleeping = 0;
		/*
		 * atomic all the same (start_kernel()'s irqs-off section is
		 * one, and readers label it so), but no sleep-in-atomic bug:
		 * the evidence says `__init`, which the rule leaves alone
		 */
		boot = sleeping && j >= 0 ? boot_chain(g, j) : 0;
		/*
		 * flags the path picks: the callers' sections may pick
		 * GFP_ATOMIC; not while booting, where every allocation is
		 * made with irqs off whatever its flags
		 */
		if (sleeping && !boot && sqlite3_column_int(sel, 9))
			sleeping = 0;
		if ((eligible || sleeping) && j >= 0 && g->f[j].actx) {
			char *ev = ctx_evidence(g, j), *b = NULL;

			if (boot)
				b = g->f[boot - 1].is_init
					    ? xasprintf(CTX_EV_BOOT_FMT, ev,
							g->f[boot - 1].name)
					    : xasprintf(CTX_EV_BOOT_TABLE_FMT,
							ev);
			rc = set_ctx(up, id, "atomic", b ? b : ev, 1);
			free(b);
			free(ev);
		} else if (eligible && j >= 0 && sqlite3_column_int(sel, 6) &&
			   (via = atomic_caller(g, j, 0, 0)) >= 0) {
			char *ev = xasprintf("a caller calls it in an atomic "
					     "section (%s() in %s)",
					     g->f[via].name, g->f[via].path);

			rc = set_ctx(up, id, "atomic", ev, 1);
			free(ev);
		} else if (sleeping && j >= 0 &&
			   (via = atomic_caller(g, j, 0, 1)) >= 0) {
			char *ev = caller_evidence(g, j, via);

			rc = set_ctx(up, id, "atomic", ev, 1);
			free(ev);
		} else if (eligible && j >= 0 && sqlite3_column_int(sel, 7) &&
			   summaries_gfp_callers_reclaim(g, j, memo, &via)) {
			char *ev = xasprintf("the flags are its caller's, and "
					     "every caller passes flags that "
					     "allow direct reclaim (%s() in "
					     "%s)",
					     g->f[via].name, g->f[via].path);

			rc = set_ctx(up, id, "process", ev, 1);
			free(ev);
		} else if (overridden) {
			rc = set_ctx(up, id, base, base_ev, 0);
		}
	}
	if (!rc && step != SQLITE_DONE)
		rc = -1;
	free(memo);
	sqlite3_finalize(sel);
	sqlite3_finalize(up);
	return rc ? rc : ctx_from_call_sites(db, g);
}
