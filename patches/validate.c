// SPDX-License-Identifier: GPL-2.0
/*
 * gfpaudit validate: apply a series to a scratch copy of the files it
 * touches (git am, patch by patch), then check every touched file and
 * every patch, and the tree for users of any #define the series removes.
 * The user's tree is only read.
 */
#include "patches/validate.h"
#include "db/db.h"
#include "lib/spawn.h"
#include "patches/scratch.h"
#include "rules/rule.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int isalnum_c(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* DIR's *.patch files, sorted, without the cover letter. */
static int list_patches(const char *dir, char ***out)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL;
	int n = 0;

	if (!d) {
		error_msg("%s: %s", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		/* vN-0000-cover-letter.patch when patch -v N wrote it */
		if (!str_has_suffix(e->d_name, ".patch") ||
		    str_has_suffix(e->d_name, "0000-cover-letter.patch"))
			continue;
		v = xrealloc(v, (size_t)(n + 1) * sizeof(char *));
		v[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (n)
		qsort(v, (size_t)n, sizeof(char *), cmp_str);
	*out = v;
	return n;
}

static int git_head(struct scratch *s, char out[41])
{
	static const char *const args[] = {"rev-parse", "HEAD", NULL};
	struct strbuf o = STRBUF_INIT;
	int rc = scratch_git(s, &o, NULL, args);

	out[0] = '\0';
	if (!rc && o.len >= 40) {
		memcpy(out, o.buf, 40);
		out[40] = '\0';
	}
	sb_release(&o);
	return rc;
}

static char *tail_lines(const char *s, int max)
{
	struct strbuf sb = STRBUF_INIT;
	int n = 0;

	for (; s && *s && n < max; n++) {
		size_t k = strcspn(s, "\n");

		if (sb.len)
			sb_adds(&sb, " / ");
		sb_add(&sb, s, k);
		s += k;
		if (*s)
			s++;
	}
	return sb_detach(&sb) ?: xstrdup("");
}

static void apply_patch(struct scratch *s, struct vpatch *p, struct vresults *r)
{
	const char *am[] = {"am", "--quiet", "--keep-cr", p->file, NULL};
	static const char *const abort_am[] = {"am", "--abort", NULL};
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;

	git_head(s, p->before);
	if (scratch_git(s, &out, &err, am)) {
		char *msg = tail_lines(err.len ? err.buf : out.buf, 3);

		vres_add(r, p->name, NULL, "apply", "fail", "git am: %s", msg);
		free(msg);
		sb_reset(&err);
		scratch_git(s, NULL, &err, abort_am);
	} else {
		p->applied = 1;
		git_head(s, p->after);
		vres_add(r, p->name, NULL, "apply", "pass",
			 "git am applied it");
	}
	sb_release(&err);
	sb_release(&out);
}

/* Write REV:path of the scratch repo to dst; 0 or -1. */
static int show_to(struct scratch *s, const char *rev, const char *path,
		   const char *dst)
{
	char *spec = xasprintf("%s:%s", rev, path);
	const char *args[] = {"show", spec, NULL};
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	int rc = scratch_git(s, &out, &err, args);
	char *dir = xstrdup(dst), *slash = strrchr(dir, '/');
	FILE *f;

	if (slash) {
		*slash = '\0';
		mkdir_p(dir);
	}
	if (!rc) {
		f = fopen(dst, "w");
		if (!f ||
		    fwrite(out.buf ? out.buf : "", 1, out.len, f) != out.len)
			rc = -1;
		if (f)
			fclose(f);
	}
	free(dir);
	free(spec);
	sb_release(&out);
	sb_release(&err);
	return rc;
}

/*
 * vfetch_fn: path at a scratch revision, or the tree's file when the
 * series does not touch it (the includer of a touched .c).
 */
struct fetch_arg {
	struct scratch *s;
	const char *tree;
};

static int fetch(void *arg, const char *rev, const char *path, const char *dst)
{
	const struct fetch_arg *f = arg;
	char *src, *buf, *dir, *slash;
	size_t len;
	FILE *out;
	int rc;

	if (!show_to(f->s, rev, path, dst))
		return 0;
	src = xasprintf("%s/%s", f->tree, path);
	rc = read_whole_file(src, &buf, &len);
	free(src);
	if (rc)
		return -1;
	dir = xstrdup(dst);
	slash = strrchr(dir, '/');
	if (slash) {
		*slash = '\0';
		mkdir_p(dir);
	}
	free(dir);
	out = fopen(dst, "w");
	rc = !out || fwrite(buf, 1, len, out) != len;
	if (out && fclose(out))
		rc = 1;
	free(buf);
	return rc ? -1 : 0;
}

static void check_patch_files(struct scratch *s, struct vctx *c,
			      struct vpatch *p, struct vresults *r)
{
	int k;

	for (k = 0; k < p->npaths; k++) {
		char *b = xasprintf("%s/.gfpaudit-v/before/%s", s->dir,
				    p->paths[k]);
		char *a = xasprintf("%s/.gfpaudit-v/after/%s", s->dir,
				    p->paths[k]);

		if (show_to(s, p->before, p->paths[k], b) ||
		    show_to(s, p->after, p->paths[k], a))
			vres_add(r, p->name, p->paths[k], "compile", "skip",
				 "new or deleted file");
		else
			vcheck_file(c, p, k, b, a, r);
		free(a);
		free(b);
	}
}

static void reverse_checkpatch(struct scratch *s, struct vctx *c,
			       struct vpatch *p, struct vresults *r)
{
	const char *args[] = {"diff", "-R", p->before, p->after, NULL};
	struct strbuf out = STRBUF_INIT;
	char *rev = xasprintf("%s/.gfpaudit-v/%s.reverse", s->dir, p->name);
	FILE *f;

	if (scratch_git(s, &out, NULL, args) == 0 && (f = fopen(rev, "w"))) {
		fwrite(out.buf ? out.buf : "", 1, out.len, f);
		fclose(f);
		vcheck_checkpatch(c, p, rev, r);
	} else {
		vcheck_checkpatch(c, p, NULL, r);
	}
	free(rev);
	sb_release(&out);
}

/*
 * The impact check: a removed #define must have no user left.  The
 * scratch copy (after the series) stands in for the files the series
 * touches; every other .c/.h file of the tree is read as it is.
 */
struct impact {
	const char *tree;
	size_t tree_len;
	struct vpatch *patches;
	int npatches;
	char **names;
	int nnames;
	const char *scratch;
	struct strbuf hits;
	int nhits;
};

static struct impact *g_impact; /* nftw has no user pointer */

static int touched(const struct impact *im, const char *rel)
{
	int i, k;

	for (i = 0; i < im->npatches; i++)
		for (k = 0; k < im->patches[i].npaths; k++)
			if (!strcmp(im->patches[i].paths[k], rel))
				return 1;
	return 0;
}

/*
 * Blank out comments and string/char literals (newlines kept), so that
 * only code mentions of a removed macro count as users.
 */
static void blank_non_code(char *b, size_t len)
{
	size_t i = 0;

	while (i < len) {
		if (b[i] == '/' && i + 1 < len && b[i + 1] == '/') {
			while (i < len && b[i] != '\n')
				b[i++] = ' ';
		} else if (b[i] == '/' && i + 1 < len && b[i + 1] == '*') {
			b[i++] = ' ';
			b[i++] = ' ';
			while (i < len && !(b[i] == '*' && i + 1 < len &&
					    b[i + 1] == '/')) {
				if (b[i] != '\n')
					b[i] = ' ';
				i++;
			}
			if (i < len)
				b[i++] = ' ';
			if (i < len)
				b[i++] = ' ';
		} else if (b[i] == '"' || b[i] == '\'') {
			char q = b[i++];

			while (i < len && b[i] != q && b[i] != '\n') {
				if (b[i] == '\\' && i + 1 < len &&
				    b[i + 1] != '\n')
					b[i++] = ' ';
				b[i++] = ' ';
			}
			i++;
		} else {
			i++;
		}
	}
}

static void scan_file(struct impact *im, const char *file, const char *rel)
{
	char *buf;
	size_t len;
	int i;

	if (read_whole_file(file, &buf, &len))
		return;
	for (i = 0; i < im->nnames; i++)
		if (memmem(buf, len, im->names[i], strlen(im->names[i])))
			break;
	if (i == im->nnames) {
		free(buf);
		return; /* the common case: no mention at all */
	}
	blank_non_code(buf, len);
	for (i = 0; i < im->nnames; i++) {
		const char *p = buf;
		size_t n = strlen(im->names[i]);

		while ((p = memmem(p, len - (size_t)(p - buf), im->names[i],
				   n))) {
			int line = 1;
			const char *q;

			if ((p == buf || !(isalnum_c(p[-1]))) &&
			    !isalnum_c(p[n])) {
				for (q = buf; q < p; q++)
					line += *q == '\n';
				if (im->nhits++ < 5)
					sb_addf(&im->hits, "%s%s:%d uses %s",
						im->hits.len ? "; " : "", rel,
						line, im->names[i]);
			}
			p += n;
			if ((size_t)(p - buf) >= len)
				break;
		}
	}
	free(buf);
}

static int impact_visit(const char *path, const struct stat *st, int type,
			struct FTW *ftw)
{
	struct impact *im = g_impact;
	const char *rel = path + im->tree_len + 1;

	(void)st;
	if (type == FTW_D && ftw->level > 0 &&
	    (!strcmp(path + ftw->base, ".git") ||
	     !strcmp(path + ftw->base, "Documentation")))
		return FTW_SKIP_SUBTREE;
	if (type != FTW_F ||
	    (!str_has_suffix(path, ".c") && !str_has_suffix(path, ".h")))
		return FTW_CONTINUE;
	if (touched(im, rel)) {
		char *s = xasprintf("%s/%s", im->scratch, rel);

		scan_file(im, s, rel);
		free(s);
	} else {
		scan_file(im, path, rel);
	}
	return FTW_CONTINUE;
}

static void check_impact(struct vpatch *v, int n, const char *tree,
			 const char *scratch, struct vresults *r)
{
	struct impact im = {.tree = tree,
			    .tree_len = strlen(tree),
			    .patches = v,
			    .npatches = n,
			    .scratch = scratch};
	const char *owner = NULL;
	int i, k, j;

	for (i = 0; i < n; i++)
		for (k = 0; k < v[i].nremoved; k++) {
			for (j = 0; j < im.nnames; j++)
				if (!strcmp(im.names[j],
					    v[i].removed_defines[k]))
					break;
			if (j < im.nnames)
				continue;
			im.names = xrealloc(im.names, (size_t)(im.nnames + 1) *
							      sizeof(char *));
			im.names[im.nnames++] = v[i].removed_defines[k];
			owner = v[i].name;
		}
	if (!im.nnames)
		return;
	g_impact = &im;
	nftw(tree, impact_visit, 32, FTW_PHYS | FTW_ACTIONRETVAL);
	g_impact = NULL;
	if (im.nhits)
		vres_add(r, owner, NULL, "impact", "fail",
			 "%d use(s) of removed macros remain: %s", im.nhits,
			 im.hits.buf);
	else
		vres_add(r, owner, NULL, "impact", "pass",
			 "no .c/.h file uses %s%s after the series",
			 im.names[0], im.nnames > 1 ? " (and more)" : "");
	sb_release(&im.hits);
	free(im.names);
}

static int load_patches(const struct vopts *o, struct vpatch **out, int *n)
{
	char **names, err[256], real[PATH_MAX];
	int i, cnt;

	if (!realpath(o->series, real)) {
		error_msg("%s: %s", o->series, strerror(errno));
		return -1;
	}
	cnt = list_patches(real, &names);
	if (cnt < 0)
		return -1;
	if (!cnt) {
		error_msg("%s: no patches in the series", o->series);
		free(names);
		return -1;
	}
	*out = xcalloc((size_t)cnt, sizeof(**out));
	*n = cnt;
	for (i = 0; i < cnt; i++) {
		struct vpatch *p = &(*out)[i];
		char *buf;
		size_t len;

		p->name = names[i];
		p->file = xasprintf("%s/%s", real, names[i]);
		if (read_whole_file(p->file, &buf, &len)) {
			error_msg("%s: %s", p->file, strerror(errno));
			free(names);
			return -1;
		}
		if (vpatch_parse(buf, p, err, sizeof(err))) {
			error_msg("%s: %s", p->file, err);
			free(buf);
			free(names);
			return -1;
		}
		free(buf);
	}
	free(names);
	return 0;
}

static void store(sqlite3 *db, const char *series, struct vresults *r)
{
	sqlite3_stmt *del =
		db_prepare(db, "DELETE FROM validations WHERE series = ?");
	sqlite3_stmt *ins = db_prepare(
		db, "INSERT INTO validations(series, patch, path, check_name, "
		    "result, detail, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)");
	char now[32];
	int i;

	iso8601_now(now);
	if (!del || !ins || db_begin(db)) {
		sqlite3_finalize(del);
		sqlite3_finalize(ins);
		return;
	}
	sqlite3_bind_text(del, 1, series, -1, SQLITE_STATIC);
	sqlite3_step(del);
	for (i = 0; i < r->n; i++) {
		struct vresult *v = &r->v[i];

		sqlite3_reset(ins);
		sqlite3_bind_text(ins, 1, series, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 2, v->patch, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 3, v->path, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 4, v->check, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 5, v->result, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 6, v->detail, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 7, now, -1, SQLITE_STATIC);
		if (sqlite3_step(ins) != SQLITE_DONE) {
			error_msg("validations: %s", sqlite3_errmsg(db));
			break;
		}
	}
	sqlite3_finalize(del);
	sqlite3_finalize(ins);
	if (i == r->n)
		db_commit(db);
	else
		db_rollback(db);
}

int validate_series(const struct vopts *o, sqlite3 *db, struct vresults *r,
		    struct vstats *st)
{
	static const char *const add[] = {"add", "-A", NULL};
	static const char *const base[] = {"commit", "-q",   "--no-verify",
					   "-m",     "base", NULL};
	struct vpatch *v = NULL;
	struct scratch s;
	struct vctx *c;
	struct fetch_arg fa;
	char parent[] = "/tmp/gfpaudit-validate.XXXXXX", real[PATH_MAX];
	const char *tmpdir = getenv("TMPDIR");
	char *ptmpl;
	int n = 0, i, k, rc = VALIDATE_PASS;

	st->kept = NULL;
	if (load_patches(o, &v, &n)) {
		for (i = 0; i < n; i++)
			vpatch_free(&v[i]);
		free(v);
		return VALIDATE_BAD_INPUT;
	}
	ptmpl = tmpdir && *tmpdir
			? xasprintf("%s/gfpaudit-validate.XXXXXX", tmpdir)
			: xstrdup(parent);
	if (!mkdtemp(ptmpl) || scratch_init(&s, ptmpl, "gfpaudit validate",
					    "gfpaudit@example.org")) {
		error_msg("cannot create a scratch directory: %s",
			  strerror(errno));
		free(ptmpl);
		rc = VALIDATE_ERROR;
		goto out;
	}
	/* Copy in every file the series touches that the tree has. */
	for (i = 0; i < n; i++)
		for (k = 0; k < v[i].npaths; k++) {
			char *src = xasprintf("%s/%s", o->tree, v[i].paths[k]);
			char *dst = xasprintf("%s/%s", s.dir, v[i].paths[k]);

			if (access(dst, F_OK) && access(src, F_OK) == 0)
				scratch_copy_in(&s, o->tree, v[i].paths[k]);
			free(src);
			free(dst);
		}
	scratch_git(&s, NULL, NULL, add);
	scratch_git(&s, NULL, NULL, base);
	fa.s = &s;
	fa.tree = o->tree;
	c = vctx_new(o, s.dir, fetch, &fa);
	for (i = 0; i < n; i++)
		apply_patch(&s, &v[i], r);
	for (i = 0; i < n; i++) {
		if (!v[i].applied)
			continue;
		check_patch_files(&s, c, &v[i], r);
		reverse_checkpatch(&s, c, &v[i], r);
	}
	if (realpath(o->tree, real))
		check_impact(v, n, real, s.dir, r);
	vctx_free(c);
	if (o->keep_work)
		st->kept = xstrdup(s.dir);
	scratch_destroy(&s, o->keep_work);
	if (!o->keep_work)
		rmdir(ptmpl);
	free(ptmpl);
	if (db) {
		char *series = realpath(o->series, real) ? real : NULL;

		store(db, series ? series : o->series, r);
	}
	for (i = 0; i < r->n && rc != VALIDATE_FAIL; i++)
		if (!strcmp(r->v[i].result, "fail"))
			rc = VALIDATE_FAIL;
		else if (!strcmp(r->v[i].result, "inconclusive"))
			rc = VALIDATE_INCONCLUSIVE;
out:
	for (i = 0; i < n; i++)
		vpatch_free(&v[i]);
	free(v);
	return rc;
}
