// SPDX-License-Identifier: GPL-2.0
/*
 * gfpaudit scan: enumerate the tree, analyse files on N threads (one
 * CXIndex each), and write results from the main thread in batches, one
 * transaction per batch, so an interrupted scan leaves whole files only
 * and the next scan (which skips files whose hash is unchanged) finishes
 * the job.
 */
#include "analyzer/analyzer.h"
#include "analyzer/fileproc.h"
#include "analyzer/fsenum.h"
#include "analyzer/scope.h"
#include "db/db.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define BATCH_FILES 256
/* Rounds of learning wrappers of wrappers (drm_malloc_ab -> _gfp -> kmalloc). */
#define MAX_LEARNED_PASSES 8
#define BATCH_SECONDS 2.0
/* At most this many files of one directory are handed out at once. */
#define DIR_RUN_FILES 16

struct job {
	char *path;
	size_t idx; /* in the scan's file list, for its sigs */
	const struct file_stamp *old; /* NULL: new file or forced */
	/*
	 * Allocated by the worker that takes the job and freed once written:
	 * a result is 2.5 KB, and an array of 55k of them in place cost a
	 * no-change re-scan of 6.1 a fifth of its time in page faults.
	 */
	struct file_result *res;
	int ready;
	int same_stamp; /* unchanged by its stamp: no result at all */
};

struct pool {
	const struct scan_env *env;
	struct job *jobs;
	size_t njobs;
	size_t next;	  /* next job to hand out */
	int tree_fd;	  /* stamps are checked relative to it */
	pthread_mutex_t mu;
	pthread_cond_t cv; /* a job became ready */
};

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Do A and B (relative paths) name files of one directory? */
static int same_dir(const char *a, const char *b)
{
	const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');
	size_t la = sa ? (size_t)(sa - a) : 0, lb = sb ? (size_t)(sb - b) : 0;

	return la == lb && !strncmp(a, b, la);
}

/*
 * Most files of a re-scan are unchanged by their stamp: one fstatat()
 * from the tree's directory, and neither a result nor the file's full
 * path is made (allocating and clearing a result for each of 6.1's 55k
 * files was a third of a no-change re-scan's page faults).
 */
static int same_stamp(int tree_fd, const struct job *j)
{
	struct stat st;

	return j->old && j->old->has_mtime && tree_fd >= 0 &&
	       fstatat(tree_fd, j->path, &st, 0) == 0 &&
	       (long long)st.st_size == j->old->size &&
	       (long long)st.st_mtim.tv_sec * 1000000000LL +
			       st.st_mtim.tv_nsec ==
		       j->old->mtime_ns;
}

static void *worker(void *arg)
{
	struct pool *p = arg;
	struct tu_parser tp;
	sqlite3 *ro = NULL;

	if (p->env->db_path &&
	    sqlite3_open_v2(p->env->db_path, &ro, SQLITE_OPEN_READONLY, NULL) !=
		    SQLITE_OK) {
		sqlite3_close(ro);
		ro = NULL;
	}
	if (ro)
		sqlite3_busy_timeout(ro, 60000);
	tu_parser_init(&tp);
	for (;;) {
		size_t first, last;

		/*
		 * A run of files of one directory goes to one worker, whose
		 * kept translation unit then serves them all (tu.c).
		 */
		pthread_mutex_lock(&p->mu);
		if (p->next == p->njobs) {
			pthread_mutex_unlock(&p->mu);
			break;
		}
		first = p->next;
		for (last = first + 1; last < p->njobs &&
		     last - first < DIR_RUN_FILES &&
		     same_dir(p->jobs[first].path, p->jobs[last].path);
		     last++)
			;
		p->next = last;
		pthread_mutex_unlock(&p->mu);
		for (; first < last; first++) {
			struct job *j = &p->jobs[first];

			j->same_stamp = same_stamp(p->tree_fd, j);
			if (!j->same_stamp) {
				j->res = xcalloc(1, sizeof(*j->res));
				process_file(p->env, &tp, ro, j->path, j->old,
					     NULL, 0, j->res);
			}
			pthread_mutex_lock(&p->mu);
			j->ready = 1;
			pthread_cond_broadcast(&p->cv);
			pthread_mutex_unlock(&p->mu);
		}
	}
	sqlite3_close(ro);
	tu_parser_free(&tp);
	return NULL;
}

struct counts {
	size_t total, parsed, unchanged, failed, uses, sites, clang;
};

static void progress(const struct counts *c, size_t done, double t0)
{
	double el = now_s() - t0, rate = el > 0 ? (double)done / el : 0;
	double eta = rate > 0 ? (double)(c->total - done) / rate : 0;
	int w = 30, fill = c->total ? (int)((double)w * done / c->total) : w;

	fprintf(stderr, "\r[%-*.*s] %zu/%zu files  %.0f files/s  ETA %.0fs ",
		w, fill, "##############################", done, c->total,
		rate, eta);
}

static void job_result_free(struct job *j)
{
	if (!j->res)
		return;
	file_result_free(j->res);
	free(j->res);
	j->res = NULL;
}

static int flush_batch(sqlite3 *db, long long run_id, struct job *jobs,
		       size_t from, size_t to, const struct tracked_flags *tf,
		       struct name_sig *sigs, struct counts *c)
{
	struct result_writer w;
	size_t i;

	if (from == to)
		return 0;
	if (db_begin(db))
		return -1;
	if (result_writer_open(&w, db)) {
		db_rollback(db);
		return -1;
	}
	for (i = from; i < to; i++) {
		struct file_result *r = jobs[i].res;

		if (r && result_writer_put(&w, run_id, r, tf)) {
			result_writer_close(&w);
			db_rollback(db);
			return -1;
		}
	}
	result_writer_close(&w);
	if (db_commit(db))
		return -1;
	for (i = from; i < to; i++) {
		struct file_result *r = jobs[i].res;

		if (!r) {
			c->unchanged++;
			continue;
		}
		if (r->error)
			warn_msg("%s: %s", r->path, r->error);
		c->unchanged += r->unchanged;
		c->failed += r->failed;
		c->parsed += !r->unchanged && !r->failed;
		c->clang += r->parsed;
		c->uses += r->lf.nuses;
		c->sites += r->lf.nsites;
		if (sigs && r->sig.h) {
			name_sig_free(&sigs[jobs[i].idx]);
			sigs[jobs[i].idx] = r->sig;
			r->sig.h = NULL;
		}
		job_result_free(&jobs[i]);
	}
	return 0;
}

/* Analyse JOBS on N threads, writing as results come in, in order. */
static int run_jobs(const struct scan_env *env, sqlite3 *db, long long run_id,
		    struct job *jobs, size_t njobs, int nthreads, int show,
		    struct name_sig *sigs, struct counts *c)
{
	struct pool p = { env, jobs, njobs, 0, -1, PTHREAD_MUTEX_INITIALIZER,
			  PTHREAD_COND_INITIALIZER };
	pthread_t *th = xcalloc((size_t)nthreads, sizeof(*th));
	size_t written = 0, i;
	double t0 = now_s(), last = t0;
	int rc = 0, t;

	pthread_attr_t attr;
	size_t stack;

	p.tree_fd = open(env->tree, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	/* libclang parses on the worker's own stack (tu_global_init). */
	pthread_attr_init(&attr);
	if (pthread_attr_getstacksize(&attr, &stack) || stack < TU_STACK_SIZE)
		pthread_attr_setstacksize(&attr, TU_STACK_SIZE);
	for (t = 0; t < nthreads; t++)
		if (pthread_create(&th[t], &attr, worker, &p))
			die(EXIT_INTERNAL, "cannot start a worker thread");
	pthread_attr_destroy(&attr);
	while (written < njobs) {
		size_t ready = written;

		pthread_mutex_lock(&p.mu);
		while (!jobs[written].ready)
			pthread_cond_wait(&p.cv, &p.mu);
		while (ready < njobs && jobs[ready].ready &&
		       ready - written < BATCH_FILES)
			ready++;
		pthread_mutex_unlock(&p.mu);
		/* Write when the batch is full, old, or the last one. */
		if (ready - written < BATCH_FILES && ready < njobs &&
		    now_s() - last < BATCH_SECONDS) {
			usleep(20000);
			continue;
		}
		if (!rc && flush_batch(db, run_id, jobs, written, ready,
				       &env->tracked, sigs, c))
			rc = -1;
		for (i = written; rc && i < ready; i++)
			job_result_free(&jobs[i]);
		written = ready;
		last = now_s();
		if (show)
			progress(c, written, t0);
	}
	for (t = 0; t < nthreads; t++)
		pthread_join(th[t], NULL);
	if (p.tree_fd >= 0)
		close(p.tree_fd);
	if (show)
		fputc('\n', stderr);
	free(th);
	return rc;
}

static long long start_run(sqlite3 *db, const struct scan_opts *o,
			   const struct scan_env *env)
{
	sqlite3_stmt *st;
	char head[41], ts[32], shard[32];
	long long id = -1;

	iso8601_now(ts);
	snprintf(shard, sizeof(shard), "%d/%d", o->shard_k, o->shard_n);
	st = db_prepare(db, "INSERT INTO runs(command, tree, kernel_version, "
			    "git_head, arch, shard, options, started_at) "
			    "VALUES ('scan', ?, ?, ?, ?, ?, ?, ?)");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, env->tree, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, env->kv.text, -1, SQLITE_STATIC);
	if (ktree_git_head(env->tree, head) == 0)
		sqlite3_bind_text(st, 3, head, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 4, env->arch, -1, SQLITE_STATIC);
	if (o->shard_n)
		sqlite3_bind_text(st, 5, shard, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 6, o->options_json ? o->options_json : "{}", -1,
			  SQLITE_STATIC);
	sqlite3_bind_text(st, 7, ts, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) == SQLITE_DONE)
		id = sqlite3_last_insert_rowid(db);
	else
		error_msg("%s: %s", o->db_path, sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return id;
}

static int finish_run(sqlite3 *db, long long id, const struct counts *c,
		      const char *status)
{
	sqlite3_stmt *st = db_prepare(db,
		"UPDATE runs SET finished_at = ?, status = ?, files_total = ?, "
		"files_parsed = ?, files_unchanged = ?, files_failed = ? "
		"WHERE id = ?");
	char ts[32];
	int rc;

	if (!st)
		return -1;
	iso8601_now(ts);
	sqlite3_bind_text(st, 1, ts, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, status, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, (long long)c->total);
	sqlite3_bind_int64(st, 4, (long long)c->parsed);
	sqlite3_bind_int64(st, 5, (long long)c->unchanged);
	sqlite3_bind_int64(st, 6, (long long)c->failed);
	sqlite3_bind_int64(st, 7, id);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	sqlite3_finalize(st);
	return rc;
}

/* path -> stamp (hash, size, mtime) of the files already in the database. */
static void load_stamps(sqlite3 *db, struct name_set *idx,
			struct file_stamp **stamps, size_t *n)
{
	sqlite3_stmt *st = db_prepare(db,
		"SELECT path, hash, size, mtime_ns FROM files");

	names_init(idx);
	*stamps = NULL;
	*n = 0;
	if (!st)
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *p = (const char *)sqlite3_column_text(st, 0);
		const char *h = (const char *)sqlite3_column_text(st, 1);
		struct file_stamp *f;

		*stamps = xrealloc(*stamps, (*n + 1) * sizeof(**stamps));
		f = &(*stamps)[*n];
		f->hash = xstrdup(h ? h : "");
		f->size = sqlite3_column_int64(st, 2);
		f->has_mtime = sqlite3_column_type(st, 3) != SQLITE_NULL;
		f->mtime_ns = sqlite3_column_int64(st, 3);
		names_put(idx, p, strlen(p), (int)*n);
		(*n)++;
	}
	sqlite3_finalize(st);
}

static int in_paths(const char *path, const struct scan_opts *o)
{
	int i;

	if (!o->npaths)
		return 1;
	for (i = 0; i < o->npaths; i++) {
		size_t n = strlen(o->paths[i]);

		while (n && o->paths[i][n - 1] == '/')
			n--;
		if (!n || (!strncmp(path, o->paths[i], n) &&
			   (path[n] == '/' || !path[n])))
			return 1;
	}
	return 0;
}

/* Is PATH in the scope (its text names one of the names)? */
static int in_scope(const char *tree, const char *path, struct scope *sc)
{
	char *abs = xasprintf("%s/%s", tree, path), *buf;
	size_t len;
	int hit;

	if (read_whole_file(abs, &buf, &len)) {
		free(abs);
		return 1; /* the scan reports why it cannot read it */
	}
	free(abs);
	hit = scope_match(sc, buf, len);
	free(buf);
	return hit;
}

static int in_shard(const char *path, int k, int n)
{
	return !n || (int)(fnv1a64(path, strlen(path)) % (uint64_t)n) == k - 1;
}

/* Drop rows of files that are gone from the tree (full scans only). */
static int prune_missing(sqlite3 *db, const struct file_list *fl)
{
	sqlite3_stmt *ins;
	size_t i;
	int rc = 0;

	if (db_exec(db, "CREATE TEMP TABLE IF NOT EXISTS seen(path TEXT "
			"PRIMARY KEY); DELETE FROM seen") ||
	    db_begin(db))
		return -1;
	ins = db_prepare(db, "INSERT OR IGNORE INTO temp.seen VALUES (?)");
	for (i = 0; ins && i < fl->n && !rc; i++) {
		sqlite3_bind_text(ins, 1, fl->paths[i], -1, SQLITE_STATIC);
		rc = sqlite3_step(ins) == SQLITE_DONE ? 0 : -1;
		sqlite3_reset(ins);
	}
	sqlite3_finalize(ins);
	if (!ins || rc ||
	    db_exec(db, "DELETE FROM files WHERE path NOT IN "
			"(SELECT path FROM temp.seen)")) {
		db_rollback(db);
		return -1;
	}
	return db_commit(db);
}

static int default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

static int check_tree(const char *tree)
{
	struct stat st;
	struct kversion kv;

	if (stat(tree, &st) != 0) {
		error_msg("%s: %s", tree, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		error_msg("%s: not a directory", tree);
		return -1;
	}
	if (ktree_version(tree, &kv)) {
		error_msg("%s: not a kernel tree (no Makefile with VERSION)",
			  tree);
		return -1;
	}
	return 0;
}

static int check_paths(const struct scan_opts *o)
{
	int i;

	for (i = 0; i < o->npaths; i++) {
		char *p = xasprintf("%s/%s", o->tree, o->paths[i]);
		struct stat st;
		int bad = !path_is_safe_relative(o->paths[i]) || stat(p, &st);

		free(p);
		if (bad) {
			error_msg("%s: no such path inside %s", o->paths[i],
				  o->tree);
			return -1;
		}
	}
	return 0;
}

/* Does BUF have a `#define name(...) ... alloc(` line (a macro allocator)? */
static int has_alloc_macro(const char *buf, size_t len,
			   const struct name_set *names)
{
	const char *p = buf, *end = buf + len;

	while ((p = memmem(p, (size_t)(end - p), "define", 6))) {
		const char *q = p, *eol;

		/* Only "#define" (with blanks in between) starting a line. */
		while (q > buf && (q[-1] == ' ' || q[-1] == '\t'))
			q--;
		p += 6;
		if (q == buf || q[-1] != '#')
			continue;
		for (q--; q > buf && (q[-1] == ' ' || q[-1] == '\t'); q--)
			;
		if (q > buf && q[-1] != '\n')
			continue;
		/* The logical line: backslash-newlines continue it. */
		eol = p;
		while ((eol = memchr(eol, '\n', (size_t)(end - eol))) &&
		       eol[-1] == '\\')
			eol++;
		if (!eol)
			eol = end;
		q = p;
		while (q < eol && (*q == ' ' || *q == '\t'))
			q++;
		while (q < eol && is_ident_char((unsigned char)*q))
			q++;
		if (q < eol && *q == '(' && names_any_in(names, q, (size_t)(eol - q)))
			return 1;
		p = eol;
	}
	return 0;
}

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
				      e->size_arg, -1, 1, e->via };

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
static void learn_outside(struct scan_env *env, sqlite3 *db,
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
			char *abs, *buf;
			size_t len;
			int want;

			/*
			 * The files of this shard take part too: an outside
			 * wrapper may wrap one of theirs.
			 */
			abs = xasprintf("%s/%s", env->tree, fl->paths[f]);
			want = read_whole_file(abs, &buf, &len) == 0;
			free(abs);
			if (!want)
				continue;
			if (!round && (memmem(buf, len, "gfp_t", 5) ||
				       memmem(buf, len, "define", 6)))
				cand[ncand++] = f;
			if (round)
				want = names_any_in(&fresh, buf, len);
			else
				want = (memmem(buf, len, "define", 6) &&
					has_alloc_macro(buf, len,
							&env->prefilter)) ||
				       (memmem(buf, len, "gfp_t", 5) &&
					names_any_in(&env->prefilter, buf,
						     len));
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
static size_t learn_for_scope(struct scan_env *env,
			      const struct file_list *fl, struct scope *sc,
			      const struct scan_opts *o)
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
		char *abs, *buf;
		size_t len;

		if (!in_shard(fl->paths[i], o->shard_k, o->shard_n))
			continue;
		abs = xasprintf("%s/%s", env->tree, fl->paths[i]);
		if (read_whole_file(abs, &buf, &len) == 0) {
			if (scope_defines_callee(sc, buf, len))
				cand[ncand++] = i;
			free(buf);
		}
		free(abs);
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
 * Another pass: wrappers learned since allocator BEFORE (an index into
 * env->allocs) make their callers sites; re-analyse the files that
 * mention a newly learned name.  1 when files were re-analysed (their
 * wrappers may be new allocators in turn), 0 when nothing was new.
 */
static int learned_pass(struct scan_env *env, sqlite3 *db, long long run_id,
			const struct file_list *fl, struct name_sig *sigs,
			const struct scan_opts *o, int nthreads, size_t before,
			size_t *reanalysed)
{
	struct name_set fresh;
	struct job *jobs;
	uint32_t *fh;
	size_t i, n = 0, nfh = 0;
	int rc;

	if (db_begin(db) || alloc_table_sync_db(&env->allocs, db) ||
	    db_commit(db))
		return -1;
	if (env->allocs.n <= before)
		return 0;
	names_init(&fresh);
	/* Learned free functions make no sites: no need to re-analyse. */
	fh = xcalloc(env->allocs.n - before, sizeof(*fh));
	for (i = before; i < env->allocs.n; i++)
		if (env->allocs.v[i].kind != AK_FREE) {
			const char *nm = env->allocs.v[i].name;

			names_put(&fresh, nm, strlen(nm), 1);
			fh[nfh++] = name_sig_hash(nm, strlen(nm));
		}
	name_sig_sort(fh, &nfh);
	scan_env_prefilter(env);
	jobs = xcalloc(fl->n ? fl->n : 1, sizeof(*jobs));
	for (i = 0; i < fl->n; i++) {
		char *abs, *buf;
		size_t len;
		if (!in_shard(fl->paths[i], o->shard_k, o->shard_n) ||
		    !in_paths(fl->paths[i], o))
			continue;
		/* Read again only the files whose set has one of them. */
		if (sigs && !name_sig_meets(&sigs[i], fh, nfh))
			continue;
		abs = xasprintf("%s/%s", env->tree, fl->paths[i]);
		if (read_whole_file(abs, &buf, &len) == 0) {
			if (names_any_in(&fresh, buf, len)) {
				jobs[n].path = fl->paths[i];
				jobs[n++].idx = i;
			}
			free(buf);
		}
		free(abs);
	}
	{
		struct counts c2 = { n, 0, 0, 0, 0, 0, 0 };

		rc = run_jobs(env, db, run_id, jobs, n, nthreads, 0, sigs,
			      &c2);
	}
	names_free(&fresh);
	free(fh);
	free(jobs);
	*reanalysed += n;
	return rc ? -1 : n > 0;
}

/*
 * Wrappers of wrappers (drm_malloc_ab -> drm_malloc_gfp -> kmalloc) need
 * a pass per level; a few levels cover the kernel's.  When the previous
 * scan was killed before its passes ran, every learned name counts as
 * new, since its callers may not have been re-analysed.
 */
static int learned_passes(struct scan_env *env, sqlite3 *db, long long run_id,
			  const struct file_list *fl, struct name_sig *sigs,
			  const struct scan_opts *o, int nthreads,
			  size_t *reanalysed)
{
	size_t before = env->allocs.n;
	int round, rc = 0;

	if (db_scalar(db, "SELECT status = 'running' FROM runs WHERE id < "
			  "(SELECT max(id) FROM runs) ORDER BY id DESC LIMIT 1",
		      0) == 1)
		before = alloc_table_builtin_count(&env->allocs);
	for (round = 0; round < MAX_LEARNED_PASSES; round++) {
		rc = learned_pass(env, db, run_id, fl, sigs, o, nthreads,
				  before, reanalysed);
		if (rc <= 0)
			break;
		/* learned_pass() read this round's names in: next, newer */
		before = env->allocs.n;
	}
	return rc < 0 ? -1 : 0;
}

int analyzer_scan(const struct scan_opts *o)
{
	struct scan_env env;
	struct file_list fl;
	struct name_set hidx;
	struct scope scope;
	struct file_list scoped = { 0 };
	struct name_sig *sigs = NULL;
	struct file_stamp *stamps;
	size_t nstamps, i, n = 0, reanalysed = 0, out_of_scope = 0;
	size_t defining = 0;
	struct job *jobs;
	struct counts c = { 0 };
	sqlite3 *db;
	long long run_id;
	int nthreads = o->jobs > 0 ? o->jobs : default_jobs(), rc = 0;
	int show = o->progress < 0 ? isatty(2) : o->progress;
	double t0 = now_s(), t_learn = 0;

	if (check_tree(o->tree) || check_paths(o))
		return EXIT_USAGE;
	/*
	 * Each file allocates and frees buffers of up to tens of MiB (its
	 * text, libclang's copy, its AST): keep freed memory for the next
	 * file instead of handing it back to the kernel and faulting it in
	 * again (measured: ~3% less CPU on a 6.1 subset).
	 */
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	db = db_open(o->db_path, DB_READWRITE);
	if (!db)
		return EXIT_USAGE;
	if (scan_env_init(&env, o->tree, o->arch, o->depth, o->compile_commands,
			  o->db_path)) {
		scan_env_free(&env);
		db_close(db);
		return EXIT_USAGE;
	}
	if (db_begin(db) || alloc_table_sync_db(&env.allocs, db) ||
	    sleepers_sync_db(&env.sleepers_builtin, &env.sleepers, db) ||
	    db_commit(db) || (run_id = start_run(db, o, &env)) < 0) {
		scan_env_free(&env);
		db_close(db);
		return EXIT_INTERNAL;
	}
	env.allocs.no_new_frees = 1;
	scan_env_prefilter(&env);
	fsenum_tree(env.tree, &fl);
	scope_init(&scope, o->scope, o->nscope);
	learn_outside(&env, db, &fl, o);
	load_stamps(db, &hidx, &stamps, &nstamps);
	jobs = xcalloc(fl.n ? fl.n : 1, sizeof(*jobs));
	for (i = 0; i < fl.n; i++) {
		int h;

		if (!in_shard(fl.paths[i], o->shard_k, o->shard_n) ||
		    !in_paths(fl.paths[i], o))
			continue;
		h = names_get(&hidx, fl.paths[i], strlen(fl.paths[i]));
		/*
		 * A file with rows is always a job (its text may have lost
		 * the names: its rows must not go stale).
		 */
		if (o->nscope && h < 0 &&
		    !in_scope(env.tree, fl.paths[i], &scope)) {
			out_of_scope++;
			continue;
		}
		jobs[n].path = fl.paths[i];
		jobs[n].idx = i;
		jobs[n].old = h >= 0 && !o->force ? &stamps[h] : NULL;
		n++;
	}
	c.total = n;
	/* The learned passes of a scoped scan look at its files only. */
	if (!o->nscope) {
		sigs = xcalloc(fl.n ? fl.n : 1, sizeof(*sigs));
		env.want_sigs = 1;
	}
	if (o->nscope)
		defining = learn_for_scope(&env, &fl, &scope, o);
	/* Learned wrappers of a scoped scan re-analyse only files in scope. */
	scoped.paths = xcalloc(n ? n : 1, sizeof(*scoped.paths));
	for (i = 0; i < n; i++)
		scoped.paths[scoped.n++] = (char *)jobs[i].path;
	if (run_jobs(&env, db, run_id, jobs, n, nthreads, show, sigs, &c) ||
	    (!o->shard_n && !o->npaths && prune_missing(db, &fl)) ||
	    (t_learn = now_s(),
	     learned_passes(&env, db, run_id, o->nscope ? &scoped : &fl, sigs,
			    o, nthreads, &reanalysed)) ||
	    db_begin(db) || analyzer_link(db) || db_commit(db))
		rc = EXIT_INTERNAL;
	if (t_learn)
		t_learn = now_s() - t_learn;
	if (finish_run(db, run_id, &c, rc ? "failed" : "complete"))
		rc = EXIT_INTERNAL;
	fprintf(stderr,
		"gfpaudit scan: %s (%s): %zu files, %zu parsed (%zu by libclang), "
		"%zu unchanged, %zu failed, %zu re-analysed for learned "
		"allocators (%.1fs) in %.1fs; %s has %lld flag uses, "
		"%lld sites\n",
		env.tree, env.kv.text, c.total, c.parsed, c.clang, c.unchanged,
		c.failed, reanalysed, t_learn, now_s() - t0, o->db_path,
		db_scalar(db, "SELECT count(*) FROM flag_uses", -1),
		db_scalar(db, "SELECT count(*) FROM sites", -1));
	if (o->nscope)
		fprintf(stderr,
			"gfpaudit scan: scoped to %d name%s: %zu files "
			"that name none were not analysed, but for %zu "
			"read for the wrappers the others call (%zu "
			"names)\n",
			o->nscope, o->nscope == 1 ? "" : "s", out_of_scope,
			defining, scope.callees.n);
	free(scoped.paths);
	for (i = 0; sigs && i < fl.n; i++)
		name_sig_free(&sigs[i]);
	free(sigs);
	scope_free(&scope);
	for (i = 0; i < nstamps; i++)
		free(stamps[i].hash);
	free(stamps);
	names_free(&hidx);
	free(jobs);
	file_list_free(&fl);
	scan_env_free(&env);
	db_close(db);
	return rc;
}
