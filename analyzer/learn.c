// SPDX-License-Identifier: GPL-2.0
/*
 * Learning allocators during a scan.  A wrapper (a function that passes
 * its gfp_t to an allocator, a macro around one) makes its callers sites,
 * so a file that calls it must be analysed with it known:
 *   - the files that may define one are analysed first, and again while
 *     their passes learn new names (wrappers of wrappers);
 *   - the other files that would be parsed were deferred by the main pass
 *     (scan_env.defer_plain) and are analysed after that, once, with
 *     every wrapper known;
 *   - a last round of passes catches what those taught.
 * A sharded, PATH-restricted or scoped scan learns the wrappers of the
 * files it does not analyse with the lexical tier.
 */
#include "analyzer/scanint.h"
#include "db/db.h"
#include "lib/util.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/*
 * Add a learned allocator unless the name is known; 1 if new.  The first
 * definition wins, as in the database (files come in path order).
 */
static int learn(struct scan_env *env, const struct alloc_fn *f,
		 struct name_set *fresh)
{
	if (alloc_lookup(&env->allocs, f->name, strlen(f->name)))
		return 0;
	alloc_table_add(&env->allocs, f);
	names_put(fresh, f->name, strlen(f->name), 1);
	return 1;
}

/* What one outside file teaches: its allocator macros and wrappers. */
static int learn_file(struct scan_env *env, struct tu_parser *tp,
		      const char *path, struct name_set *fresh)
{
	struct file_result r;
	size_t k;
	int n = 0;

	process_file(env, tp, NULL, path, NULL, NULL, 0, &r);
	for (k = 0; k < r.lf.macros.n; k++)
		n += learn(env, &r.lf.macros.v[k], fresh);
	for (k = 0; k < r.emit.nallocs; k++) {
		const struct emit_alloc *e = &r.emit.allocs[k];
		struct alloc_fn f = { e->name, AK_ALLOC, e->family, e->gfp_arg,
				      e->size_arg, -1, 1, e->via, NULL,
				      (char *)path };

		if (!strcmp(e->kind, "alloc"))
			n += learn(env, &f, fresh);
	}
	file_result_free(&r);
	return n;
}

/*
 * A sharded or PATH-restricted scan still learns the allocators of the
 * files it does not scan (a macro in a header of another shard, a wrapper
 * function that check_wrapper.c recognises from tokens), with the lexical
 * tier over the whole tree and pass after pass while new names appear
 * (a wrapper outside may wrap one inside), so that the shards together
 * equal a whole scan.
 */
void learn_outside(struct scan_env *env, sqlite3 *db,
		   const struct file_list *fl, const struct scan_opts *o)
{
	struct tu_parser tp;
	enum parse_depth depth = env->depth;
	struct name_set fresh, next;
	size_t i, *cand, ncand = 0;
	int round, learned = 1;

	if (!o->shard_n && !o->npaths)
		return;
	/*
	 * A database that holds a complete whole-tree scan already has the
	 * tree's learned allocators (read at the scan's start): a PATH scan
	 * into it need not learn them again.
	 */
	if (db_scalar(db, "SELECT count(*) FROM runs WHERE command = 'scan' "
			  "AND status = 'complete' AND shard IS NULL AND "
			  "json_array_length(options, '$.paths') = 0", 0) > 0)
		return;
	tu_parser_init(&tp);
	env->depth = DEPTH_LEXICAL;
	names_init(&fresh);
	/*
	 * Only a file with a gfp_t parameter or a #define can teach an
	 * allocator: later rounds re-read just those.
	 */
	cand = xcalloc(fl->n ? fl->n : 1, sizeof(*cand));
	for (round = 0; learned && round < MAX_LEARNED_PASSES; round++) {
		learned = 0;
		names_init(&next);
		for (i = 0; i < (round ? ncand : fl->n); i++) {
			size_t f = round ? cand[i] : i;
			char *buf;
			size_t len;
			int want;

			/*
			 * The files of this shard take part too: an outside
			 * wrapper may wrap one of theirs.
			 */
			if (read_tree_file(env->tree, fl->paths[f], &buf, &len))
				continue;
			if (!round && (memmem(buf, len, "gfp_t", 5) ||
				       memmem(buf, len, "define", 6)))
				cand[ncand++] = f;
			want = round ? names_any_in(&fresh, buf, len) :
				       names_any_in(&env->prefilter, buf, len) &&
					       may_define_allocator(env, buf,
								    len);
			free(buf);
			if (want)
				learned += learn_file(env, &tp, fl->paths[f],
						      &next);
		}
		names_free(&fresh);
		fresh = next;
		scan_env_prefilter(env);
	}
	free(cand);
	names_free(&fresh);
	env->depth = depth;
	tu_parser_free(&tp);
}

/*
 * A scoped scan learns the wrappers its files call with a scope name
 * (tmpbuf_zalloc(32, GFP_TEMPORARY), the macro in tmpbuf.h) from the
 * files outside the scope that look like they define one, with the
 * lexical tier, round after round while new names appear (a wrapper of
 * a wrapper among those files).  Without them such a call is no site and
 * the rule could not use the caller's gfp_t there.
 */
size_t learn_for_scope(struct scan_env *env, const struct file_list *fl,
		       struct scope *sc, const struct scan_opts *o)
{
	struct tu_parser tp;
	enum parse_depth depth = env->depth;
	struct name_set unknown, fresh;
	size_t i, *cand, ncand = 0;
	int round, learned = 1;

	/* Only names that are not allocators yet need a definition. */
	names_init(&unknown);
	for (i = 0; i < sc->callees.cap; i++) {
		const char *k = sc->callees.keys[i];

		if (k && !alloc_lookup(&env->allocs, k, strlen(k)))
			names_put(&unknown, k, strlen(k), 1);
	}
	names_free(&sc->callees);
	sc->callees = unknown;
	if (!sc->callees.n)
		return 0;
	cand = xcalloc(fl->n ? fl->n : 1, sizeof(*cand));
	for (i = 0; i < fl->n; i++) {
		char *buf;
		size_t len;

		if (!in_shard(fl->paths[i], o->shard_k, o->shard_n) ||
		    read_tree_file(env->tree, fl->paths[i], &buf, &len))
			continue;
		if (scope_defines_callee(sc, buf, len))
			cand[ncand++] = i;
		free(buf);
	}
	tu_parser_init(&tp);
	env->depth = DEPTH_LEXICAL;
	for (round = 0; learned && round < MAX_LEARNED_PASSES; round++) {
		learned = 0;
		names_init(&fresh);
		for (i = 0; i < ncand; i++)
			learned += learn_file(env, &tp, fl->paths[cand[i]],
					      &fresh);
		names_free(&fresh);
		scan_env_prefilter(env);
	}
	env->depth = depth;
	tu_parser_free(&tp);
	free(cand);
	return ncand;
}

/*
 * The names a pass looks for (learned since the last one), with the file
 * that taught each (allocators.path).  A file that names new names only
 * where it defines them (its own wrapper's definition, once each) gains
 * nothing from knowing them: no call of theirs is in it, so the pass
 * leaves it alone.  Most wrappers are static helpers called in their own
 * file, and those files are analysed again.
 */
struct fresh_names {
	struct name_set set; /* name -> k */
	char **taught_by;    /* k -> path, or NULL */
	unsigned char *seen; /* k named once in the file at hand */
	unsigned char *frees; /* k is a free macro: only its calls count */
	const char *buf;     /* the file at hand */
	size_t len;
	int *marked;	     /* the seen k, to clear them for the next file */
	size_t n, nmarked;
	const char *file;
};

static void fresh_init(struct fresh_names *f, const struct alloc_table *t,
		       size_t before, sqlite3 *db)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT path FROM allocators "
					  "WHERE origin = 'learned' AND name = ?");
	size_t i;

	memset(f, 0, sizeof(*f));
	names_init(&f->set);
	f->taught_by = xcalloc(t->n - before + 1, sizeof(*f->taught_by));
	f->frees = xcalloc(t->n - before + 1, 1);
	for (i = before; i < t->n; i++) {
		const char *nm = t->v[i].name;

		/*
		 * Learned free functions make no sites: no need to look.  A
		 * free macro ends the object of a site where it is called
		 * (lx_learn_free_macros()): the files analysed before it was
		 * known and that call it are analysed again, so the answer
		 * does not depend on the order files come in.
		 */
		if (t->v[i].kind == AK_FREE &&
		    (!t->v[i].family || strcmp(t->v[i].family, "macro")))
			continue;
		f->frees[f->n] = t->v[i].kind == AK_FREE;
		names_put(&f->set, nm, strlen(nm), (int)f->n);
		if (st) {
			sqlite3_bind_text(st, 1, nm, -1, SQLITE_STATIC);
			if (sqlite3_step(st) == SQLITE_ROW &&
			    sqlite3_column_text(st, 0))
				f->taught_by[f->n] = xstrdup(
					(const char *)sqlite3_column_text(st, 0));
			sqlite3_reset(st);
		}
		f->n++;
	}
	sqlite3_finalize(st);
	f->seen = xcalloc(f->n + 1, 1);
	f->marked = xcalloc(f->n + 1, sizeof(*f->marked));
}

static void fresh_free(struct fresh_names *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->taught_by[i]);
	free(f->taught_by);
	free(f->seen);
	free(f->frees);
	free(f->marked);
	names_free(&f->set);
}

/* `name (`, not `->name (` or `.name (`: a call of a macro NAME. */
static int called_at(const char *b, size_t len, size_t start, size_t end)
{
	while (end < len && (b[end] == ' ' || b[end] == '\t'))
		end++;
	while (start > 0 && (b[start - 1] == ' ' || b[start - 1] == '\t'))
		start--;
	return end < len && b[end] == '(' &&
	       !(start > 0 && (b[start - 1] == '.' || b[start - 1] == '>'));
}

/* names_each_at(): 1 when name K makes f->file worth analysing again. */
static int calls_fresh(int k, size_t start, size_t end, void *arg)
{
	struct fresh_names *f = arg;

	if (f->frees[k] && !called_at(f->buf, f->len, start, end))
		return 0;
	if (!f->taught_by[k] || strcmp(f->taught_by[k], f->file) ||
	    f->seen[k])
		return 1;
	f->seen[k] = 1;
	f->marked[f->nmarked++] = k;
	return 0;
}

static int wants_again(struct fresh_names *f, const char *path,
		       const char *buf, size_t len)
{
	int rc;

	f->file = path;
	f->buf = buf;
	f->len = len;
	rc = names_each_at(&f->set, buf, len, calls_fresh, f);
	while (f->nmarked)
		f->seen[f->marked[--f->nmarked]] = 0;
	return rc;
}

/*
 * Which files a pass analyses again: want[i] for file I.  Reading the
 * files whose identifier set meets the new names was a serial stretch
 * of 2-3 s of a whole 6.1 scan (round one reads thousands), so the list
 * is split between threads; each has its own scratch marks
 * (fresh_names.seen and .marked) over the shared, read-only names.
 */
struct selection {
	size_t next; /* the next chunk of files to take (atomic) */
	const struct scan_env *env;
	const struct file_list *fl;
	const struct scan_marks *marks;
	const struct scan_opts *o;
	const struct fresh_names *fresh;
	const uint32_t *fh;
	size_t nfh;
	unsigned char *want;
};

#define SELECT_CHUNK 256

static void *select_range(void *arg)
{
	struct selection *sel = arg;
	const struct file_list *fl = sel->fl;
	struct fresh_names f = *sel->fresh;
	size_t i, end = 0;

	f.seen = xcalloc(f.n + 1, 1);
	f.marked = xcalloc(f.n + 1, sizeof(*f.marked));
	f.nmarked = 0;
	for (i = 0;; i++) {
		char *buf;
		size_t len;

		/* chunks taken in turn: the costly files are not all in one */
		if (i == end) {
			i = __atomic_fetch_add(&sel->next, SELECT_CHUNK,
					       __ATOMIC_RELAXED);
			if (i >= fl->n)
				break;
			end = i + SELECT_CHUNK < fl->n ? i + SELECT_CHUNK
						       : fl->n;
		}
		if (!in_shard(fl->paths[i], sel->o->shard_k, sel->o->shard_n) ||
		    !in_paths(fl->paths[i], sel->o) ||
		    (sel->marks->deferred && sel->marks->deferred[i]))
			continue;
		/* Read again only the files whose set has one of them. */
		if (sel->marks->sigs &&
		    !name_sig_meets(&sel->marks->sigs[i], sel->fh, sel->nfh))
			continue;
		if (read_tree_file(sel->env->tree, fl->paths[i], &buf, &len))
			continue;
		sel->want[i] = wants_again(&f, fl->paths[i], buf, len) != 0;
		free(buf);
	}
	free(f.seen);
	free(f.marked);
	return NULL;
}

static void select_files(struct selection *sel, int nthreads)
{
	pthread_t *th;
	int t, started;

	if (nthreads < 1 || sel->fl->n < 4 * SELECT_CHUNK)
		nthreads = 1;
	th = xcalloc((size_t)nthreads, sizeof(*th));
	sel->next = 0;
	/* this thread takes chunks too, and does all if none can start */
	for (started = 0; started < nthreads - 1; started++)
		if (pthread_create(&th[started], NULL, select_range, sel))
			break;
	select_range(sel);
	for (t = 0; t < started; t++)
		pthread_join(th[t], NULL);
	free(th);
}

/*
 * Another pass: wrappers learned since allocator BEFORE (an index into
 * env->allocs) make their callers sites; re-analyse the files that
 * mention a newly learned name, but for those deferred (they will be
 * analysed with every name known).  1 when files were re-analysed (their
 * wrappers may be new allocators in turn), 0 when nothing was new.
 */
static int learned_pass(struct scan_env *env, sqlite3 *db, long long run_id,
			const struct file_list *fl, struct scan_marks *marks,
			const struct scan_opts *o, int nthreads, size_t before,
			size_t *reanalysed)
{
	struct counts c2 = { 0 };
	struct fresh_names fresh;
	struct selection sel;
	struct job *jobs;
	uint32_t *fh;
	size_t i, n = 0, nfh = 0;
	int rc;

	if (db_begin(db) || alloc_table_sync_db(&env->allocs, db) ||
	    db_commit(db))
		return -1;
	if (env->allocs.n <= before)
		return 0;
	fresh_init(&fresh, &env->allocs, before, db);
	fh = xcalloc(fresh.n + 1, sizeof(*fh));
	for (i = 0; i < fresh.set.cap; i++)
		if (fresh.set.keys[i])
			fh[nfh++] = name_sig_hash(fresh.set.keys[i],
						  strlen(fresh.set.keys[i]));
	name_sig_sort(fh, &nfh);
	scan_env_prefilter(env);
	sel.env = env;
	sel.fl = fl;
	sel.marks = marks;
	sel.o = o;
	sel.fresh = &fresh;
	sel.fh = fh;
	sel.nfh = nfh;
	sel.want = xcalloc(fl->n ? fl->n : 1, 1);
	select_files(&sel, nthreads);
	jobs = xcalloc(fl->n ? fl->n : 1, sizeof(*jobs));
	for (i = 0; i < fl->n; i++)
		if (sel.want[i]) {
			jobs[n].path = fl->paths[i];
			jobs[n++].idx = i;
		}
	free(sel.want);
	c2.total = n;
	rc = run_jobs(env, db, run_id, jobs, n, nthreads, marks, DEFER_PASS,
		      &c2);
	fresh_free(&fresh);
	free(fh);
	free(jobs);
	/* a file deferred now is analysed (again) by analyse_deferred() */
	*reanalysed += n - c2.deferred;
	return rc ? -1 : n > 0;
}

size_t learned_since(const struct scan_env *env, sqlite3 *db)
{
	if (db_scalar(db, "SELECT status = 'running' FROM runs WHERE id < "
			  "(SELECT max(id) FROM runs) ORDER BY id DESC LIMIT 1",
		      0) == 1)
		return alloc_table_builtin_count(&env->allocs);
	return env->allocs.n;
}

/*
 * Wrappers of wrappers (drm_malloc_ab -> drm_malloc_gfp -> kmalloc) need
 * a pass per level; a few levels cover the kernel's.
 */
int learned_passes(struct scan_env *env, sqlite3 *db, long long run_id,
		   const struct file_list *fl, struct scan_marks *marks,
		   const struct scan_opts *o, int nthreads, size_t before,
		   size_t *reanalysed)
{
	int round, rc = 0;

	for (round = 0; round < MAX_LEARNED_PASSES; round++) {
		rc = learned_pass(env, db, run_id, fl, marks, o, nthreads,
				  before, reanalysed);
		if (rc <= 0)
			break;
		/* learned_pass() read this round's names in: next, newer */
		before = env->allocs.n;
	}
	return rc < 0 ? -1 : 0;
}

/*
 * The deferred files, with the table as the passes left it: first those
 * the main pass deferred (they count as the scan's files), then those a
 * pass deferred (the main pass wrote them unparsed: they count as
 * re-analysed).  Path order within each, as everywhere.
 */
int analyse_deferred(struct scan_env *env, sqlite3 *db, long long run_id,
		     const struct file_list *fl, struct scan_marks *marks,
		     int nthreads, struct counts *c, size_t *reanalysed)
{
	struct job *jobs;
	size_t i, n;
	int why, rc = 0;

	if (!marks->deferred)
		return 0;
	env->defer_plain = 0;
	for (why = DEFER_MAIN; why <= DEFER_PASS && !rc; why++) {
		struct counts late = { 0 };

		jobs = xcalloc(fl->n ? fl->n : 1, sizeof(*jobs));
		for (i = n = 0; i < fl->n; i++)
			if (marks->deferred[i] == why) {
				jobs[n].path = fl->paths[i];
				jobs[n++].idx = i;
			}
		late.total = n;
		rc = run_jobs(env, db, run_id, jobs, n, nthreads, marks,
			      DEFER_NONE, why == DEFER_MAIN ? c : &late);
		if (why == DEFER_PASS)
			*reanalysed += n;
		free(jobs);
	}
	free(marks->deferred);
	marks->deferred = NULL;
	return rc;
}
