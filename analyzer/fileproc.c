// SPDX-License-Identifier: GPL-2.0
/*
 * One file: read, hash, reject binary (NUL bytes) content, prefilter on
 * the tracked and allocator names, parse with libclang at the wanted
 * depth, token scan, evaluate flags, run the classifiers, and write it
 * all as one delete-then-insert keyed by path.
 */
#include "analyzer/fileproc.h"
#include "analyzer/linkmemo.h"
#include "analyzer/walk.h"
#include "db/db.h"
#include "db/sites.h"
#include "lib/karch.h"
#include "lib/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* The classifiers' data files, from rules_dir(). */
static int knowledge_load(struct scan_env *e)
{
	const char *dir = rules_dir();
	char *p;
	int i, rc;

	names_init(&e->sleepers);
	for (i = 0; i < AT_KINDS; i++)
		names_init(&e->atomic[i]);
	for (i = 0; i < LT_KINDS; i++)
		names_init(&e->lifetime[i]);
	if (!dir)
		return -1;
	p = xasprintf("%s/sleepers.txt", dir);
	rc = tracked_flags_load(p, &e->sleepers_builtin);
	free(p);
	for (i = 0; !rc && i < (int)e->sleepers_builtin.n; i++) {
		const char *n = e->sleepers_builtin.names[i];

		names_put(&e->sleepers, n, strlen(n), 1);
	}
	if (!rc) {
		p = xasprintf("%s/atomic.txt", dir);
		rc = keyed_names_load(p, atomic_kinds, e->atomic);
		free(p);
	}
	if (!rc) {
		p = xasprintf("%s/lifetime.txt", dir);
		rc = keyed_names_load(p, lifetime_kinds, e->lifetime);
		free(p);
	}
	return rc;
}

int scan_env_init(struct scan_env *e, const char *tree, const char *arch,
		  enum parse_depth depth, const char *cc_path,
		  const char *db_path)
{
	memset(e, 0, sizeof(*e));
	tu_global_init();
	e->tree = realpath(tree, NULL);
	if (!e->tree)
		return -1;
	if (ktree_version(e->tree, &e->kv))
		return -1;
	if (tables_load_default(&e->tracked, &e->allocs) ||
	    knowledge_load(e))
		return -1;
	kconfig_load(&e->config, e->tree);
	gfp_model_load(&e->gfp, e->tree, &e->config);
	gfp_model_defines(&e->gfp, &e->config, &e->defines, &e->ndefines);
	if (cc_path && !(e->cc = ccdb_load(cc_path)))
		return -1;
	e->arch = arch ? arch : karch_host();
	if (!e->arch)
		e->arch = "x86"; /* uname() failed: the common case */
	e->depth = depth;
	e->db_path = db_path;
	names_init(&e->prefilter);
	scan_env_prefilter(e);
	return 0;
}

static void add_interesting(const char *name, void *arg)
{
	names_put(arg, name, strlen(name), 1);
}

void scan_env_prefilter(struct scan_env *e)
{
	size_t i;
	int k;

	walker_interesting(add_interesting, &e->prefilter);
	/*
	 * A file that registers a reclaimer or sets an evict member may
	 * shrink a cache created in another file (check_shrinker's facts,
	 * for the link and the summaries steps).
	 */
	for (k = 0; k < 2; k++) {
		const struct name_set *n =
			&e->lifetime[k ? LT_EVICT : LT_RECLAIM];

		for (i = 0; i < n->cap; i++)
			if (n->keys[i])
				add_interesting(n->keys[i], &e->prefilter);
	}
	for (i = 0; i < e->tracked.n; i++)
		names_put(&e->prefilter, e->tracked.names[i],
			  strlen(e->tracked.names[i]), 1);
	for (i = 0; i < e->allocs.n; i++)
		if (e->allocs.v[i].kind != AK_FREE)
			names_put(&e->prefilter, e->allocs.v[i].name,
				  strlen(e->allocs.v[i].name), 1);
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
		/* blanks too: lx_learn_macros() looks at the next token */
		while (q < eol && (*q == ' ' || *q == '\t'))
			q++;
		if (q < eol && *q == '(' &&
		    names_any_in(names, q, (size_t)(eol - q)))
			return 1;
		p = eol;
	}
	return 0;
}

int may_define_allocator(const struct scan_env *e, const char *buf,
			 size_t len)
{
	/* check_wrapper.c wants a gfp_t parameter; lexsites.c a #define */
	return memmem(buf, len, "gfp_t", 5) ||
	       has_alloc_macro(buf, len, &e->prefilter);
}

void scan_env_free(struct scan_env *e)
{
	int i;

	free(e->tree);
	tracked_flags_free(&e->tracked);
	alloc_table_free(&e->allocs);
	names_free(&e->prefilter);
	kconfig_free(&e->config);
	gfp_model_free(&e->gfp);
	ccdb_free(e->cc);
	while (e->ndefines)
		free(e->defines[--e->ndefines]);
	free(e->defines);
	tracked_flags_free(&e->sleepers_builtin);
	names_free(&e->sleepers);
	for (i = 0; i < AT_KINDS; i++)
		names_free(&e->atomic[i]);
	for (i = 0; i < LT_KINDS; i++)
		names_free(&e->lifetime[i]);
}

/*
 * NULL when BUF is C source, else why not.  Source is bytes: a file with
 * a Latin-1 name in a comment (2.6-era fs/dcache.c, net/socket.c) is
 * analysed like any other, its bytes as they are, so that columns and
 * edits stay the file's own.  Only NUL bytes say it is no text.
 */
static const char *not_text(const char *buf, size_t len)
{
	return memchr(buf, '\0', len) ? "binary file (NUL bytes), skipped" :
					 NULL;
}

/*
 * The flags an allocation is made with (sites.flags_used): as resolved
 * when they came through a variable; an allocator's own when it takes
 * none (vzalloc(): GFP_KERNEL, data/allocators.txt `=FLAGS`); else as
 * written.  NULL when unknown (a wrapper that takes no gfp_t).
 */
static char *flags_used(const struct site *s, const struct alloc_fn *a)
{
	const char *t = s->flags_resolved ? s->flags_resolved :
			s->gfp_arg < 0	  ? a->implied :
					    s->flags;

	return t ? xstrdup(t) : NULL;
}

/*
 * Flags whose value is still unknown, written starting with a macro's
 * name (capitals: GFP_F2FS_ZERO, not a variable's `gfp`).
 */
static int flags_unknown(const struct site *s)
{
	const char *t = s->flags_resolved ? s->flags_resolved : s->flags;

	if (s->mask_known || !t || !is_ident_start((unsigned char)*t))
		return 0;
	for (; is_ident_char((unsigned char)*t); t++)
		if (*t >= 'a' && *t <= 'z')
			return 0;
	return 1;
}

static void evaluate_sites(const struct scan_env *e, struct lexfile *lf)
{
	struct macro_env near;
	int have_near = 0;
	size_t i;

	for (i = 0; i < lf->nsites; i++) {
		struct lex_site *ls = &lf->sites[i];

		gfp_eval_site(&e->gfp, &lf->local, &lf->undone, NULL,
			      &e->config, &ls->s,
			      ls->afn->kind == AK_CACHE_CREATE);
		/*
		 * A driver's own flag macro (GFP_F2FS_ZERO in f2fs.h): the
		 * headers the file includes by a quoted name, read only for
		 * a file that has such a site.
		 */
		if (flags_unknown(&ls->s) && e->tree) {
			if (!have_near) {
				menv_init(&near);
				gfp_near_headers(&near, e->tree, lf,
						 &e->config);
				have_near = 1;
			}
			gfp_eval_site(&e->gfp, &lf->local, &lf->undone, &near,
				      &e->config, &ls->s,
				      ls->afn->kind == AK_CACHE_CREATE);
		}
		ls->s.flags_used = flags_used(&ls->s, ls->afn);
	}
	if (have_near)
		menv_free(&near);
}

/* Allocator macros of this file go to the allocators table (learned). */
static void learned_macros(struct file_result *r)
{
	struct walk_ctx w = { 0 };
	size_t i;

	w.emit = &r->emit;
	for (i = 0; i < r->lf.macros.n; i++) {
		const struct alloc_fn *a = &r->lf.macros.v[i];

		emit_allocator(&w, a->name, alloc_kind_name(a->kind), a->family,
			       a->gfp_arg, a->size_arg, a->via,
			       r->lf.macro_line[i]);
	}
}

/*
 * A modification time this close to the moment the file is read may be
 * followed by a change within the same timestamp tick (git's "racily
 * clean" entries): such a file is not trusted by its stamp next time.
 */
#define STAMP_SETTLED_NS (2LL * 1000000000LL)

static int file_mtime(const char *abs, long long *size, long long *mtime_ns)
{
	struct stat st;

	if (stat(abs, &st))
		return -1;
	*size = (long long)st.st_size;
	*mtime_ns = (long long)st.st_mtim.tv_sec * 1000000000LL +
		    st.st_mtim.tv_nsec;
	return 0;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * tools/ and scripts/ are user-space programs: their functions are not
 * the kernel's (tools/ re-implements kernel names for its tests).
 */
static int user_space(const char *rel)
{
	return !strncmp(rel, "tools/", 6) || !strncmp(rel, "scripts/", 8);
}

void process_file(const struct scan_env *e, struct tu_parser *tp, sqlite3 *rodb,
		  const char *rel, const struct file_stamp *old,
		  const char *const *argv, int argc, struct file_result *r)
{
	char *abs = xasprintf("%s/%s", e->tree, rel), *buf = NULL;
	size_t len = 0;
	struct parse_req rq;
	struct parse_res pr;
	struct cflags cf = { 0 };
	const char *why;
	int is_c = str_has_suffix(rel, ".c"), have_sig = 0;

	memset(r, 0, sizeof(*r));
	r->path = xstrdup(rel);
	r->parse_mode = "lexical";
	if (!file_mtime(abs, &r->size, &r->mtime_ns)) {
		/* unchanged by its stamp: not even read */
		if (old && old->has_mtime && old->size == r->size &&
		    old->mtime_ns == r->mtime_ns) {
			r->unchanged = 1;
			goto out;
		}
		r->has_mtime = r->mtime_ns < now_ns() - STAMP_SETTLED_NS;
	}
	if (read_whole_file(abs, &buf, &len)) {
		r->error = xasprintf("cannot read: %s", strerror(errno));
		r->has_mtime = 0; /* chmod does not change the mtime */
		r->failed = 1;
		r->parse_mode = "failed";
		strcpy(r->hash, "-");
		goto out;
	}
	/* changed while it was read: the stamp does not describe it */
	if ((long long)len != r->size)
		r->has_mtime = 0;
	r->size = (long long)len;
	snprintf(r->hash, sizeof(r->hash), "%016llx",
		 (unsigned long long)hash64(buf, len));
	if (old && old->hash && !strcmp(old->hash, r->hash)) {
		r->unchanged = 1;
		/* touched, not changed: record the stamp for next time */
		r->restamp = r->has_mtime && (!old->has_mtime ||
					      old->mtime_ns != r->mtime_ns);
		goto out;
	}
	why = not_text(buf, len);
	if (why) {
		r->error = xstrdup(why);
		r->failed = 1;
		r->parse_mode = "failed";
		goto out;
	}
	/*
	 * Nothing we track can be in a file without any of the names.  A
	 * scan that keeps each file's name set reads both in one walk.
	 */
	if (!argv && e->want_sigs) {
		have_sig = 1;
		if (!name_sig_build_any(&r->sig, buf, len, &e->prefilter))
			goto out;
	} else if (!argv && !names_any_in(&e->prefilter, buf, len)) {
		goto out;
	}
	if (e->defer_plain && !argv && !may_define_allocator(e, buf, len)) {
		r->deferred = 1;
		goto out;
	}
	memset(&rq, 0, sizeof(rq));
	rq.tree = e->tree;
	rq.abspath = abs;
	rq.buf = buf;
	rq.len = len;
	rq.depth = e->depth;
	rq.single_argv = (const char *const *)e->defines;
	rq.single_argc = e->ndefines;
	if (argv) {
		rq.argv = argv;
		rq.argc = argc;
		rq.source = FS_EXPLICIT;
		rq.depth = DEPTH_FULL;
	} else if (e->depth == DEPTH_FULL && is_c) {
		cflags_for(&cf, e->cc, e->tree, e->arch, abs,
			   e->config.configured);
		rq.argv = (const char *const *)cf.argv;
		rq.argc = cf.argc;
		rq.source = cf.source;
	} else if (e->depth == DEPTH_FULL) {
		rq.depth = DEPTH_SINGLE_FILE; /* headers have no TU of their own */
	}
	r->lf.path = r->path;
	r->lf.buf = buf;
	r->lf.len = len;
	if (tu_parse(tp, &rq, &pr, &r->lf)) {
		r->error = xstrdup("libclang could not parse the file");
		r->failed = 1;
		r->parse_mode = "failed";
		cflags_free(&cf);
		goto out;
	}
	r->parsed = 1;
	r->parse_mode = pr.parse_mode;
	r->diagnostics = pr.diagnostics;
	lex_fill_lines(&r->lf);
	lex_scan(&r->lf, &e->tracked, &e->allocs, &e->gfp.env, &e->config);
	evaluate_sites(e, &r->lf);
	learned_macros(r);
	{
		struct walk_ctx w = {
			.tu = pr.tu,
			.file = pr.file,
			.path = r->path,
			.tree = e->tree,
			.kv = &e->kv,
			.direct_reclaim = e->gfp.direct_reclaim,
			.depth = pr.depth,
			.db = rodb,
			.emit = &r->emit,
			.lf = &r->lf,
			.allocs = &e->allocs,
			.sleepers = &e->sleepers,
			.atomic = e->atomic,
			.lifetime = e->lifetime,
		};

		walk_file(&w, &r->lf);
	}
	tu_dispose(&pr);
	cflags_free(&cf);
	/*
	 * Results wait for the writer in file order: keep only the rows,
	 * not the tokens (the buffer is freed below).
	 */
	lex_drop_tokens(&r->lf);
out:
	/* a deferred file gets its summaries when it is analysed */
	if (buf && !r->failed && !r->unchanged && !r->deferred &&
	    (is_c || str_has_suffix(rel, ".h")) && !user_space(rel))
		fnsum_extract(buf, len, &e->sleepers, &e->allocs,
			      e->atomic, e->lifetime, &r->fns);
	/* a deferred file gets its set when it is analysed */
	if (r->deferred)
		name_sig_free(&r->sig);
	else if (e->want_sigs && buf && !have_sig)
		name_sig_build(&r->sig, buf, len);
	free(buf);
	free(abs);
}

void file_result_free(struct file_result *r)
{
	free(r->path);
	free(r->error);
	name_sig_free(&r->sig);
	fnsum_free(&r->fns);
	lex_free(&r->lf);
	walk_emit_free(&r->emit);
	memset(r, 0, sizeof(*r));
}

/* --- writing -------------------------------------------------------- */

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	/* Static: every string outlives the step_done() that unbinds it. */
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

static void bind_int_or_null(sqlite3_stmt *st, int i, int known,
			     long long v)
{
	if (known)
		sqlite3_bind_int64(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

static int step_done(sqlite3 *db, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE) {
		error_msg("%s: %s", sqlite3_db_filename(db, "main"),
			  sqlite3_errmsg(db));
		return -1;
	}
	return 0;
}

/*
 * Two definitions of one learned name (percpu-km.c and percpu-vm.c both
 * define pcpu_create_chunk): the first by path and line wins, whatever
 * the order the files are written in, so that a sharded scan and its
 * merge (db/merge.c) equal a whole scan.
 */
#define FIRST_DEFINED(t)                                                  \
	"(excluded.path < " t ".path OR (excluded.path = " t ".path AND "   \
	"excluded.line < " t ".line))"

/*
 * The writer's statements, prepared once per batch rather than once per
 * file: a scan writes 55k files, most of them with no rows at all.
 */
enum {
	W_DEL_FILE, W_DEL_ALLOCS, W_DEL_SLEEPERS, W_DEL_FINDINGS, W_FILE,
	W_USE, W_SITE, W_ALLOC, W_SLEEPER, W_CACHE, W_FINDING, W_FACT,
	W_RESTAMP, W_FUNC, W_OLD, W_NSTMT
};

_Static_assert(W_NSTMT == RESULT_WRITER_STMTS, "result_writer size");

static const char *const write_sql[W_NSTMT] = {
	/* flag_uses, sites and caches go with the files row (CASCADE). */
	[W_DEL_FILE] =
		"DELETE FROM files WHERE path = ?",
	[W_DEL_ALLOCS] =
		"DELETE FROM allocators WHERE origin = 'learned' "
		"AND path = ?",
	[W_DEL_SLEEPERS] =
		"DELETE FROM sleepers WHERE origin = 'learned' "
		"AND path = ?",
	[W_DEL_FINDINGS] =
		"DELETE FROM findings WHERE path = ? AND run_id IN "
		"(SELECT id FROM runs WHERE command IN "
		"('scan', 'check'))",
	[W_FILE] =
		"INSERT INTO files(path, hash, size, run_id, "
		"parse_mode, diagnostics, error, mtime_ns, link_digest, "
		"linked) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[W_USE] =
		"INSERT OR IGNORE INTO flag_uses(file_id, path, line, col,"
		" flag,"
		" context, function, macro, call, in_disabled_branch) "
		"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	/* [W_SITE]: db_sites_insert_sql(), made from db/sites_cols.h */
	[W_ALLOC] =
		"INSERT INTO allocators(name, kind, family, gfp_arg,"
		" size_arg,"
		" origin, via, path, line) VALUES"
		" (?,?,?,?,?,'learned',?,?,?) "
		"ON CONFLICT(name) DO UPDATE SET kind = excluded.kind,"
		" family = excluded.family, gfp_arg = excluded.gfp_arg,"
		" size_arg = excluded.size_arg, via = excluded.via,"
		" path = excluded.path, line = excluded.line "
		"WHERE allocators.origin = 'learned' AND "
		FIRST_DEFINED("allocators"),
	[W_SLEEPER] =
		"INSERT INTO sleepers(function, origin, evidence, path,"
		" line) "
		"VALUES (?, 'learned', ?, ?, ?) ON CONFLICT(function) DO"
		" UPDATE"
		" SET evidence = excluded.evidence, path = excluded.path,"
		" line = excluded.line WHERE sleepers.origin = 'learned' AND "
		FIRST_DEFINED("sleepers"),
	[W_CACHE] =
		"INSERT OR REPLACE INTO caches(file_id, path, line, col,"
		" variable,"
		" name, flags, reclaimable, has_shrinker, shrinker_evidence,"
		" shrinker_scope) VALUES (?,?,?,?,?,?,?,?,?,?,"
		" CASE WHEN ?9 = 1 THEN 'file' END)",
	[W_FINDING] =
		"INSERT OR REPLACE INTO findings(rule, severity, path,"
		" line, col,"
		" message, suggestion, site_id, run_id) VALUES"
		" (?,?,?,?,?,?,?,"
		" (SELECT id FROM sites WHERE path = ?3 AND line = ?4"
		"  ORDER BY abs(col - ?5) LIMIT 1), ?8)",
	/* the directory with its '/', or '' at the top: rtrim(path, name) */
	[W_FACT] =
		"INSERT INTO file_facts(file_id, kind, name, function, dir,"
		" line) VALUES (?1, ?2, ?3, ?6, rtrim(?4, replace(?4, '/', '')),"
		" ?5)",
	[W_RESTAMP] =
		"UPDATE files SET mtime_ns = ?2, size = ?3 WHERE path = ?1",
	[W_FUNC] =
		"INSERT INTO functions(file_id, name, line, is_static, sleeps,"
		" callees, atomic_callees, params, callbacks, gfp_sleeps,"
		" gfp_calls, drop_line, unlocked_callees, is_init)"
		" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	/* for linkmemo_save() */
	[W_OLD] =
		"SELECT id, link_digest, linked FROM files WHERE path = ?",
};

int result_writer_open(struct result_writer *w, sqlite3 *db)
{
	int k;

	memset(w, 0, sizeof(*w));
	w->db = db;
	for (k = 0; k < W_NSTMT; k++) {
		char *sql = k == W_SITE ? db_sites_insert_sql() : NULL;

		w->st[k] = db_prepare(db, sql ? sql : write_sql[k]);
		free(sql);
		if (!w->st[k]) {
			result_writer_close(w);
			return -1;
		}
	}
	return 0;
}

void result_writer_close(struct result_writer *w)
{
	int k;

	for (k = 0; k < W_NSTMT; k++)
		sqlite3_finalize(w->st[k]);
	memset(w, 0, sizeof(*w));
}

static int write_uses(struct result_writer *w, long long fid,
		      const struct file_result *r,
		      const struct tracked_flags *tf)
{
	sqlite3_stmt *st = w->st[W_USE];
	size_t i;
	int rc = 0;

	for (i = 0; i < r->lf.nuses && !rc; i++) {
		const struct flag_use *u = &r->lf.uses[i];

		sqlite3_bind_int64(st, 1, fid);
		bind_text(st, 2, r->path);
		sqlite3_bind_int(st, 3, (int)u->line);
		sqlite3_bind_int(st, 4, (int)u->col);
		bind_text(st, 5, tf->names[u->flag]);
		bind_text(st, 6, u->context);
		bind_text(st, 7, u->function);
		bind_text(st, 8, u->macro);
		bind_text(st, 9, u->call);
		sqlite3_bind_int(st, 10, u->disabled);
		rc = step_done(w->db, st);
	}
	return rc;
}

static int write_sites(struct result_writer *w, long long fid,
		       const struct file_result *r)
{
	sqlite3_stmt *st = w->st[W_SITE];
	size_t i;
	int rc = 0;

	for (i = 0; i < r->lf.nsites && !rc; i++) {
		const struct site *s = &r->lf.sites[i].s;
		int k = 0;

		/* one bind per written column, numbered in list order */
#define SV_FILE sqlite3_bind_int64(st, ++k, fid);
#define SV_STR(field) bind_text(st, ++k, s->field);
#define SV_TEXT(expr) bind_text(st, ++k, (expr));
#define SV_INT(expr) sqlite3_bind_int64(st, ++k, (expr));
#define SV_INT_IF(known, expr) bind_int_or_null(st, ++k, (known), (expr));
#define SITE_COL(name, type, decl, value, rule) value
#include "db/sites_cols.h"
		rc = step_done(w->db, st);
	}
	return rc;
}

/* A file's one-row list fact (fnsum.h): NAME `-`, line 0. */
static int write_list_fact(sqlite3 *db, sqlite3_stmt *fa, long long fid,
			   const char *path, const char *kind,
			   const char *list)
{
	sqlite3_bind_int64(fa, 1, fid);
	bind_text(fa, 2, kind);
	bind_text(fa, 3, "-");
	bind_text(fa, 4, path);
	sqlite3_bind_int(fa, 5, 0);
	bind_text(fa, 6, list);
	return step_done(db, fa);
}

static int write_emits(struct result_writer *w, long long run_id,
		       long long fid, const struct file_result *r)
{
	const struct walk_emit *e = &r->emit;
	sqlite3_stmt *a = w->st[W_ALLOC], *s = w->st[W_SLEEPER],
		     *c = w->st[W_CACHE], *f = w->st[W_FINDING],
		     *fa = w->st[W_FACT];
	sqlite3 *db = w->db;
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < e->nallocs; i++) {
		bind_text(a, 1, e->allocs[i].name);
		bind_text(a, 2, e->allocs[i].kind);
		bind_text(a, 3, e->allocs[i].family);
		bind_int_or_null(a, 4, e->allocs[i].gfp_arg >= 0,
				 e->allocs[i].gfp_arg);
		bind_int_or_null(a, 5, e->allocs[i].size_arg >= 0,
				 e->allocs[i].size_arg);
		bind_text(a, 6, e->allocs[i].via);
		bind_text(a, 7, r->path);
		sqlite3_bind_int(a, 8, (int)e->allocs[i].line);
		rc = step_done(db, a);
	}
	for (i = 0; !rc && i < e->nsleepers; i++) {
		bind_text(s, 1, e->sleepers[i].function);
		bind_text(s, 2, e->sleepers[i].evidence);
		bind_text(s, 3, r->path);
		sqlite3_bind_int(s, 4, (int)e->sleepers[i].line);
		rc = step_done(db, s);
	}
	for (i = 0; !rc && i < e->ncaches; i++) {
		const struct emit_cache *k = &e->caches[i];

		sqlite3_bind_int64(c, 1, fid);
		bind_text(c, 2, r->path);
		sqlite3_bind_int(c, 3, (int)k->line);
		sqlite3_bind_int(c, 4, (int)k->col);
		bind_text(c, 5, k->variable);
		bind_text(c, 6, k->name);
		bind_text(c, 7, k->flags);
		bind_int_or_null(c, 8, k->reclaimable >= 0, k->reclaimable);
		bind_int_or_null(c, 9, k->has_shrinker >= 0, k->has_shrinker);
		bind_text(c, 10, k->evidence);
		rc = step_done(db, c);
	}
	for (i = 0; !rc && i < e->nfindings; i++) {
		const struct emit_finding *k = &e->findings[i];

		bind_text(f, 1, k->rule);
		bind_text(f, 2, k->severity);
		bind_text(f, 3, r->path);
		sqlite3_bind_int(f, 4, (int)k->line);
		sqlite3_bind_int(f, 5, (int)k->col);
		bind_text(f, 6, k->message);
		bind_text(f, 7, k->suggestion);
		bind_int_or_null(f, 8, run_id > 0, run_id);
		rc = step_done(db, f);
	}
	for (i = 0; !rc && i < r->fns.n; i++) {
		const struct fn_summary *fs = &r->fns.v[i];
		sqlite3_stmt *fn = w->st[W_FUNC];

		sqlite3_bind_int64(fn, 1, fid);
		bind_text(fn, 2, fs->name);
		sqlite3_bind_int(fn, 3, (int)fs->line);
		sqlite3_bind_int(fn, 4, fs->is_static);
		bind_text(fn, 5, fs->sleeps);
		bind_text(fn, 6, fs->callees);
		bind_text(fn, 7, fs->atomic_callees);
		bind_text(fn, 8, fs->params);
		bind_text(fn, 9, fs->callbacks);
		bind_text(fn, 10, fs->gfp_sleeps);
		bind_text(fn, 11, fs->gfp_calls);
		sqlite3_bind_int(fn, 12, (int)fs->drop_line);
		bind_text(fn, 13, fs->unlocked_callees);
		sqlite3_bind_int(fn, 14, fs->is_init);
		rc = step_done(db, fn);
	}
	/*
	 * one row each: what calls through a member may reach, and the
	 * functions handed to callback registrations (the list in the
	 * unindexed column)
	 */
	if (!rc && r->fns.inits)
		rc = write_list_fact(db, fa, fid, r->path, FACT_MEMBER_INITS,
				     r->fns.inits);
	if (!rc && r->fns.callbacks)
		rc = write_list_fact(db, fa, fid, r->path, FACT_CALLBACKS,
				     r->fns.callbacks);
	for (i = 0; !rc && i < e->nfacts; i++) {
		sqlite3_bind_int64(fa, 1, fid);
		bind_text(fa, 2, e->facts[i].kind);
		bind_text(fa, 3, e->facts[i].name);
		bind_text(fa, 4, r->path);
		sqlite3_bind_int(fa, 5, (int)e->facts[i].line);
		bind_text(fa, 6, e->facts[i].function);
		rc = step_done(db, fa);
	}
	return rc;
}

static int exec_path(struct result_writer *w, int k, const char *path)
{
	bind_text(w->st[k], 1, path);
	return step_done(w->db, w->st[k]);
}

int result_writer_put(struct result_writer *w, long long run_id,
		      const struct file_result *r,
		      const struct tracked_flags *tf)
{
	sqlite3_stmt *st = w->st[W_FILE];
	long long fid;
	uint64_t digest;
	int kept;

	if (r->unchanged && r->restamp) {
		st = w->st[W_RESTAMP];
		bind_text(st, 1, r->path);
		sqlite3_bind_int64(st, 2, r->mtime_ns);
		sqlite3_bind_int64(st, 3, r->size);
		return step_done(w->db, st);
	}
	if (r->unchanged)
		return 0;
	digest = linkmemo_digest(r);
	if (linkmemo_save(w->db, w->st[W_OLD], r->path, digest, r, &kept) ||
	    exec_path(w, W_DEL_FILE, r->path) ||
	    exec_path(w, W_DEL_ALLOCS, r->path) ||
	    exec_path(w, W_DEL_SLEEPERS, r->path) ||
	    exec_path(w, W_DEL_FINDINGS, r->path))
		return -1;
	bind_text(st, 1, r->path);
	bind_text(st, 2, r->hash);
	sqlite3_bind_int64(st, 3, r->size);
	bind_int_or_null(st, 4, run_id > 0, run_id);
	bind_text(st, 5, r->parse_mode);
	sqlite3_bind_int(st, 6, r->diagnostics);
	bind_text(st, 7, r->error);
	bind_int_or_null(st, 8, r->has_mtime, r->mtime_ns);
	sqlite3_bind_int64(st, 9, (sqlite3_int64)digest);
	sqlite3_bind_int(st, 10, kept);
	if (step_done(w->db, st))
		return -1;
	fid = sqlite3_last_insert_rowid(w->db);
	if (write_uses(w, fid, r, tf) || write_sites(w, fid, r) ||
	    write_emits(w, run_id, fid, r) ||
	    (kept && linkmemo_restore(w->db, fid, r)))
		return -1;
	return 0;
}

int write_result(sqlite3 *db, long long run_id, const struct file_result *r,
		 const struct tracked_flags *tf)
{
	struct result_writer w;
	int rc;

	if (r->unchanged)
		return 0;
	if (result_writer_open(&w, db))
		return -1;
	rc = result_writer_put(&w, run_id, r, tf);
	result_writer_close(&w);
	return rc;
}
