// SPDX-License-Identifier: GPL-2.0
/*
 * gfpaudit scan: enumerate the tree, analyse files on N threads (one
 * CXIndex each), and write results from the main thread in batches, one
 * transaction per batch, so an interrupted scan leaves whole files only
 * and the next scan (which skips files whose hash is unchanged) finishes
 * the job.
 */
#include "analyzer/scanint.h"
#include "db/db.h"
#include "db/runs.h"
#include "lib/datadir.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define BATCH_FILES 256
#define BATCH_SECONDS 2.0
/* At most this many files of one directory are handed out at once. */
#define DIR_RUN_FILES 16

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

/* Jobs FROM..TO-1 are done: tell the writer. */
static void publish(struct pool *p, size_t from, size_t to)
{
	if (from == to)
		return;
	pthread_mutex_lock(&p->mu);
	for (; from < to; from++)
		p->jobs[from].ready = 1;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
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
		size_t first, last, pub;

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
		/*
		 * Files unchanged by their stamp are told ready together
		 * (one lock and wake-up for a run, not one a file: they
		 * were 9% of a no-change re-scan), before any file that
		 * must be read.
		 */
		for (pub = first; first < last; first++) {
			struct job *j = &p->jobs[first];

			j->same_stamp = same_stamp(p->tree_fd, j);
			if (!j->same_stamp) {
				publish(p, pub, first);
				pub = first;
				j->res = xcalloc(1, sizeof(*j->res));
				process_file(p->env, &tp, ro, j->path, j->old,
					     NULL, 0, j->res);
			}
		}
		publish(p, pub, last);
	}
	sqlite3_close(ro);
	tu_parser_free(&tp);
	return NULL;
}

static void progress(const struct counts *c)
{
	double el = now_s() - c->t0;
	double rate = el > 0 ? (double)c->done / el : 0;
	double eta = rate > 0 ? (double)(c->total - c->done) / rate : 0;
	int w = 30;
	int fill = c->total ? (int)((double)w * c->done / c->total) : w;

	fprintf(stderr, "\r[%-*.*s] %zu/%zu files  %.0f files/s  ETA %.0fs ",
		w, fill, "##############################", c->done, c->total,
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

/* Count R (NULL: unchanged by its stamp) into C. */
static void count_result(struct counts *c, const struct file_result *r)
{
	c->done++;
	if (!r) {
		c->unchanged++;
		return;
	}
	if (r->error)
		warn_msg("%s: %s", r->path, r->error);
	c->unchanged += r->unchanged;
	c->failed += r->failed;
	c->parsed += !r->unchanged && !r->failed;
	c->clang += r->parsed;
	c->uses += r->lf.nuses;
	c->sites += r->lf.nsites;
}

static int flush_batch(sqlite3 *db, long long run_id, struct job *jobs,
		       size_t from, size_t to, const struct tracked_flags *tf,
		       struct scan_marks *marks, int why, struct counts *c)
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

		if (r && !r->deferred && result_writer_put(&w, run_id, r, tf)) {
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

		if (r && r->deferred) {
			marks->deferred[jobs[i].idx] = (unsigned char)why;
			c->deferred++;
		} else {
			count_result(c, r);
		}
		if (marks->sigs && r && r->sig.h) {
			name_sig_free(&marks->sigs[jobs[i].idx]);
			marks->sigs[jobs[i].idx] = r->sig;
			r->sig.h = NULL;
		}
		job_result_free(&jobs[i]);
	}
	return 0;
}

int run_jobs(const struct scan_env *env, sqlite3 *db, long long run_id,
	     struct job *jobs, size_t njobs, int nthreads,
	     struct scan_marks *marks, int why, struct counts *c)
{
	struct pool p = { env, jobs, njobs, 0, -1, PTHREAD_MUTEX_INITIALIZER,
			  PTHREAD_COND_INITIALIZER };
	pthread_t *th = xcalloc((size_t)nthreads, sizeof(*th));
	size_t written = 0, i;
	double last = now_s();
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
				       &env->tracked, marks, why, c))
			rc = -1;
		for (i = written; rc && i < ready; i++)
			job_result_free(&jobs[i]);
		written = ready;
		last = now_s();
		if (c->show)
			progress(c);
	}
	for (t = 0; t < nthreads; t++)
		pthread_join(th[t], NULL);
	if (p.tree_fd >= 0)
		close(p.tree_fd);
	free(th);
	return rc;
}

static long long start_run(sqlite3 *db, const struct scan_opts *o,
			   const struct scan_env *env)
{
	char head[41], shard[32];
	struct db_run r = {
		.command = "scan",
		.tree = env->tree,
		.kernel_version = env->kv.text,
		.git_head = ktree_git_head(env->tree, head) ? NULL : head,
		.arch = env->arch,
		.shard = o->shard_n ? shard : NULL,
		.options = o->options_json ? o->options_json : "{}",
		.files_total = -1,
	};
	long long id;

	snprintf(shard, sizeof(shard), "%d/%d", o->shard_k, o->shard_n);
	id = db_run_open(db, &r);
	if (id < 0)
		error_msg("%s: %s", o->db_path, sqlite3_errmsg(db));
	return id;
}

static int finish_run(sqlite3 *db, long long id, const struct counts *c,
		      const char *status)
{
	struct db_run_files f = {
		.total = (long long)c->total,
		.parsed = (long long)c->parsed,
		.unchanged = (long long)c->unchanged,
		.failed = (long long)c->failed,
	};

	return db_run_close(db, id, status, &f);
}

/* H folded with the bytes of PATH (unchanged when it cannot be read). */
static uint64_t fold_file(uint64_t h, const char *path)
{
	FILE *fp = fopen(path, "rb");
	char buf[1 << 16];
	size_t n;

	if (!fp)
		return h;
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		h = (h ^ fnv1a64(buf, n)) * 1099511628211ULL;
	fclose(fp);
	return h;
}

/*
 * What answered the rows: this binary and the knowledge tables it read.
 * A database scanned by another (an upgrade, a rebuilt tree, an edited
 * data/lifetime.txt) has rows it would answer differently.
 */
static char *analyzer_stamp(void)
{
	static const char *const tables[] = {
		"allocators.txt", "sleepers.txt", "atomic.txt", "lifetime.txt",
		"tracked-flags.txt", NULL,
	};
	const char *dir = gfp_datadir("allocators.txt");
	uint64_t h = fold_file(14695981039346656037ULL, "/proc/self/exe");
	int i;

	for (i = 0; dir && tables[i]; i++) {
		char *p = xasprintf("%s/%s", dir, tables[i]);

		h = fold_file(h, p);
		free(p);
	}
	return xasprintf("%s %016llx", GFPAUDIT_VERSION, (unsigned long long)h);
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

int in_paths(const char *path, const struct scan_opts *o)
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

int read_tree_file(const char *tree, const char *rel, char **buf,
		   size_t *len)
{
	char *abs = xasprintf("%s/%s", tree, rel);
	int rc = read_whole_file(abs, buf, len);

	free(abs);
	return rc;
}

/* Is PATH in the scope (its text names one of the names)? */
static int in_scope(const char *tree, const char *path, struct scope *sc)
{
	char *buf;
	size_t len;
	int hit;

	if (read_tree_file(tree, path, &buf, &len))
		return 1; /* the scan reports why it cannot read it */
	hit = scope_match(sc, buf, len);
	free(buf);
	return hit;
}

int in_shard(const char *path, int k, int n)
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

int analyzer_scan(const struct scan_opts *o, struct scan_stats *st)
{
	struct scan_env env;
	struct file_list fl;
	struct name_set hidx;
	struct scope scope;
	struct file_list scoped = { 0 };
	struct scan_marks marks = { NULL, NULL };
	struct file_stamp *stamps;
	size_t nstamps, i, n = 0, reanalysed = 0, out_of_scope = 0, known = 0;
	size_t defining = 0, before;
	struct job *jobs;
	struct counts c = { 0 };
	sqlite3 *db;
	long long run_id;
	int nthreads = o->jobs > 0 ? o->jobs : default_jobs(), rc = 0, force;
	double t0 = now_s(), t_learn = 0, t_pass;
	char *stamp, *had_stamp;

	memset(st, 0, sizeof(*st));
	if (check_tree(o->tree) || check_paths(o))
		return ANALYZER_BAD_INPUT;
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
		return ANALYZER_BAD_INPUT;
	if (scan_env_init(&env, o->tree, o->arch, o->depth, o->compile_commands,
			  o->db_path)) {
		scan_env_free(&env);
		db_close(db);
		return ANALYZER_BAD_INPUT;
	}
	if (db_begin(db) || alloc_table_sync_db(&env.allocs, db) ||
	    sleepers_sync_db(&env.sleepers_builtin, db) ||
	    db_commit(db) || (run_id = start_run(db, o, &env)) < 0) {
		scan_env_free(&env);
		db_close(db);
		return ANALYZER_FAILED;
	}
	scan_env_prefilter(&env);
	fsenum_tree(env.tree, &fl);
	scope_init(&scope, o->scope, o->nscope);
	learn_outside(&env, db, &fl, o);
	load_stamps(db, &hidx, &stamps, &nstamps);
	/* another analyzer's rows: every file in this scan again */
	stamp = analyzer_stamp();
	had_stamp = db_meta_get(db, "analyzer_stamp");
	force = o->force || (had_stamp && strcmp(had_stamp, stamp));
	if (force && !o->force && nstamps)
		fprintf(stderr, "gfpaudit scan: %s was scanned by another "
				"build or other tables: every file is "
				"analysed again\n",
			o->db_path);
	jobs = xcalloc(fl.n ? fl.n : 1, sizeof(*jobs));
	for (i = 0; i < fl.n; i++) {
		int h;

		if (!in_shard(fl.paths[i], o->shard_k, o->shard_n) ||
		    !in_paths(fl.paths[i], o))
			continue;
		h = names_get(&hidx, fl.paths[i], strlen(fl.paths[i]));
		known += h >= 0;
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
		jobs[n].old = h >= 0 && !force ? &stamps[h] : NULL;
		n++;
	}
	c.total = n;
	c.t0 = t0;
	c.show = o->progress < 0 ? isatty(2) : o->progress;
	/*
	 * The learned passes of a scoped scan look at its files only; a
	 * whole scan keeps each file's identifiers for them, and analyses
	 * the files that may define an allocator before the others.
	 */
	if (!o->nscope) {
		marks.sigs = xcalloc(fl.n ? fl.n : 1, sizeof(*marks.sigs));
		marks.deferred = xcalloc(fl.n ? fl.n : 1, 1);
		env.want_sigs = 1;
		env.defer_plain = 1;
	}
	if (o->nscope)
		defining = learn_for_scope(&env, &fl, &scope, o);
	/* Learned wrappers of a scoped scan re-analyse only files in scope. */
	scoped.paths = xcalloc(n ? n : 1, sizeof(*scoped.paths));
	for (i = 0; i < n; i++)
		scoped.paths[scoped.n++] = (char *)jobs[i].path;
	before = learned_since(&env, db);
	rc = run_jobs(&env, db, run_id, jobs, n, nthreads, &marks, DEFER_MAIN,
		      &c);
	/* every file with rows is still in the tree: nothing to drop */
	if (!rc && !o->shard_n && !o->npaths && known < nstamps)
		rc = prune_missing(db, &fl);
	t_pass = now_s();
	if (!rc)
		rc = learned_passes(&env, db, run_id, o->nscope ? &scoped : &fl,
				    &marks, o, nthreads, before, &reanalysed);
	t_learn = now_s() - t_pass;
	/* what the deferred files teach is new to all the others */
	before = env.allocs.n;
	if (!rc)
		rc = analyse_deferred(&env, db, run_id, &fl, &marks, nthreads,
				      &c, &reanalysed);
	t_pass = now_s();
	if (!rc)
		rc = learned_passes(&env, db, run_id, o->nscope ? &scoped : &fl,
				    &marks, o, nthreads, before, &reanalysed);
	t_learn += now_s() - t_pass;
	if (!rc) {
		char *had = db_meta_get(db, "summaries_stamp");

		/*
		 * --force trusts nothing kept: the answers are solved again
		 * (a new binary may answer differently from the same rows).
		 */
		rc = db_begin(db) ||
		     (force &&
		      db_exec(db, "UPDATE files SET linked = 0")) ||
		     analyzer_link(db) ||
		     /* a whole scan's rows are all this analyzer's now */
		     (!o->shard_n && !o->npaths && !o->nscope &&
		      db_meta_set(db, "analyzer_stamp", stamp)) ||
		     db_commit(db);
		if (!rc && had)
			st->summaries = db_meta_get(db, "summaries_last");
		free(had);
	}
	if (rc)
		rc = ANALYZER_FAILED;
	/* the progress bar's line ends here */
	if (c.show)
		fputc('\n', stderr);
	if (finish_run(db, run_id, &c, rc ? "failed" : "complete"))
		rc = ANALYZER_FAILED;
	st->have_summary = 1;
	st->tree = xstrdup(env.tree);
	st->kv = env.kv;
	st->total = c.total;
	st->parsed = c.parsed;
	st->clang = c.clang;
	st->unchanged = c.unchanged;
	st->failed = c.failed;
	st->reanalysed = reanalysed;
	st->t_learn = t_learn;
	st->t_total = now_s() - t0;
	st->flag_uses = db_scalar(db, "SELECT count(*) FROM flag_uses", -1);
	st->sites = db_scalar(db, "SELECT count(*) FROM sites", -1);
	st->out_of_scope = out_of_scope;
	st->defining = defining;
	st->callees = scope.callees.n;
	free(scoped.paths);
	for (i = 0; marks.sigs && i < fl.n; i++)
		name_sig_free(&marks.sigs[i]);
	free(marks.sigs);
	free(marks.deferred);
	scope_free(&scope);
	free(stamp);
	free(had_stamp);
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

void scan_stats_free(struct scan_stats *st)
{
	free(st->tree);
	free(st->summaries);
	st->tree = st->summaries = NULL;
}
