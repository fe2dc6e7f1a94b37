// SPDX-License-Identifier: GPL-2.0
/*
 * Writing a patch series with git itself: the touched files are copied
 * into a scratch repository, the originals committed, each group's edits
 * committed with its message, and `git format-patch --cover-letter` writes
 * the mbox files.  What git does not know — subjects in the subsystem's
 * style, To:/Cc:, the cover letter's text — is filled in afterwards.
 */
#include "patches/series.h"
#include "db/db.h"
#include "lib/ktree.h"
#include "patches/maintainers.h"
#include "patches/mbox.h"
#include "patches/scratch.h"
#include "patches/trailers.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Append text word-wrapped at 72 columns, as commit messages are. */
static void add_wrapped(struct strbuf *sb, const char *text)
{
	size_t col = 0;

	while (*text) {
		size_t n = strcspn(text, " \n");

		if (col && col + 1 + n > 72) {
			sb_addc(sb, '\n');
			col = 0;
		} else if (col) {
			sb_addc(sb, ' ');
			col++;
		}
		sb_add(sb, text, n);
		col += n;
		text += n;
		if (*text == '\n' && text[1] == '\n') {
			sb_adds(sb, "\n\n");
			col = 0;
			text += 2;
		}
		while (*text == ' ' || *text == '\n')
			text++;
	}
	if (col)
		sb_addc(sb, '\n');
}

struct group_stat {
	int files, insertions, deletions, edits, params, removals;
	char *subject;
};

static int prepare_out(const char *out, int force)
{
	DIR *d;
	struct dirent *e;
	int rc = 0;

	if (mkdir_p(out)) {
		error_msg("%s: %s", out, strerror(errno));
		return -1;
	}
	d = opendir(out);
	if (!d) {
		error_msg("%s: %s", out, strerror(errno));
		return -1;
	}
	while ((e = readdir(d)) && !rc) {
		char *p;

		if (!str_has_suffix(e->d_name, ".patch"))
			continue;
		if (!force) {
			error_msg("%s already holds a series (%s); use --force "
				  "to replace it",
				  out, e->d_name);
			rc = -1;
			break;
		}
		p = xasprintf("%s/%s", out, e->d_name);
		unlink(p);
		free(p);
	}
	closedir(d);
	return rc;
}

static char *commit_message(const struct rule *r, const struct plan *p,
			    const struct plan_group *g,
			    const struct group_stat *gs, const char *author)
{
	struct strbuf sb = STRBUF_INIT, para = STRBUF_INIT;
	const char *flag = r->subst ? r->subst[0].from : r->flags[0];

	if (g->last)
		sb_addf(&sb, "%s: remove %s\n\n", g->prefix, flag);
	else
		sb_addf(&sb, "%s: %s\n\n", g->prefix, r->subject);
	if (r->why)
		sb_addf(&sb, "%s\n", r->why);
	if (g->last)
		sb_addf(&para,
			"With every user converted, remove the "
			"definition of %s and its entries in the "
			"flag-name tables (tracepoints, perf kmem).\n\n",
			flag);
	else if (!strcmp(g->key, "all") && p->nremoved)
		sb_addf(&para,
			"Also remove the definition of %s and its "
			"entries in the flag-name tables.\n\n",
			flag);
	if (gs->edits && r->action == RULE_ADD)
		sb_addf(&para, "This adds %s at %d site%s in %d file%s",
			r->add_flag, gs->edits, gs->edits == 1 ? "" : "s",
			gs->files, gs->files == 1 ? "" : "s");
	else if (gs->edits)
		sb_addf(&para, "This converts %d use%s in %d file%s", gs->edits,
			gs->edits == 1 ? "" : "s", gs->files,
			gs->files == 1 ? "" : "s");
	if (gs->params)
		sb_addf(&para,
			"; %d pass%s the caller's gfp_t parameter "
			"instead",
			gs->params, gs->params == 1 ? "es" : "");
	if (gs->edits)
		sb_adds(&para, ". ");
	sb_addf(&para, "Found and converted by gfpaudit (rule %s)%s", r->name,
		r->upstream ? ", as upstream did in" : ".");
	add_wrapped(&sb, para.buf);
	/* checkpatch wants the commit reference whole, on one line. */
	if (r->upstream)
		sb_addf(&sb, "commit %s.\n", r->upstream);
	sb_addc(&sb, '\n');
	trailers_add(&sb, r);
	sb_addf(&sb, "Signed-off-by: %s\n", author);
	sb_release(&para);
	return sb_detach(&sb);
}

static int is_subst_target(const struct rule *r, const char *to)
{
	int i;

	for (i = 0; i < r->nsubst; i++)
		if (r->subst[i].to && !strcmp(r->subst[i].to, to))
			return 1;
	return 0;
}

static void count_group(const struct rule *r, const struct plan *p, int g,
			struct group_stat *gs)
{
	int i, k;

	for (i = 0; i < p->nfiles; i++) {
		if (p->files[i].group != g)
			continue;
		for (k = 0; k < p->files[i].n; k++) {
			const struct edit *e = &p->files[i].e[k];

			if (e->refused)
				continue; /* left out of the series */
			if (e->kind == EDIT_DEL_DEFINE ||
			    e->kind == EDIT_DEL_LINE)
				gs->removals++;
			else
				gs->edits++;
			if (e->kind == EDIT_ARG_PARAM ||
			    (e->kind == EDIT_TOKEN && e->to &&
			     !is_subst_target(r, e->to)))
				gs->params++; /* the caller's gfp_t */
		}
	}
}

/* path C-quoted for fast-import: any name the tree may hold is safe. */
static void add_quoted_path(struct strbuf *sb, const char *path)
{
	const unsigned char *c;

	sb_addc(sb, '"');
	for (c = (const unsigned char *)path; *c; c++) {
		if (*c == '"' || *c == '\\')
			sb_addf(sb, "\\%c", *c);
		else if (*c < 0x20 || *c >= 0x7f)
			sb_addf(sb, "\\%03o", *c);
		else
			sb_addc(sb, (char)*c);
	}
	sb_addc(sb, '"');
}

static void add_data(struct strbuf *sb, const char *data, size_t len)
{
	sb_addf(sb, "data %zu\n", len);
	sb_add(sb, data, len);
	sb_addc(sb, '\n');
}

/*
 * An edit refused by edits_apply() is left out of the series: say where,
 * one line each, and take it out of the statistics.
 */
static void note_refused(const struct rule *r, struct plan *p,
			 const struct file_plan *f, const struct strbuf *why)
{
	const char *l = why->buf ? why->buf : "";
	int k;

	while (*l) {
		size_t n = strcspn(l, "\n");

		warn_msg("%s:%.*s", f->path, (int)n, l);
		l += n;
		if (*l)
			l++;
	}
	for (k = 0; k < f->n; k++) {
		if (!f->e[k].refused)
			continue;
		p->refused++;
		p->uses--;
		if (f->e[k].kind == EDIT_ARG_PARAM ||
		    (f->e[k].kind == EDIT_TOKEN && f->e[k].to &&
		     !is_subst_target(r, f->e[k].to)))
			p->via_param--;
	}
}

/* A filemodify of path with its text, for the fast-import stream. */
static void add_file(struct strbuf *stream, const char *path, mode_t mode,
		     const char *data, size_t len)
{
	sb_addf(stream, "M %s inline ", mode & 0100 ? "100755" : "100644");
	add_quoted_path(stream, path);
	sb_addc(stream, '\n');
	add_data(stream, data ? data : "", len);
}

/*
 * Group g's edits applied to the scratch copies of its files; each file
 * whose text changed goes into the fast-import stream as a filemodify,
 * and every file as it was into base (the base commit's files).
 * *changed counts the changed files.
 */
static int apply_group(struct scratch *s, const struct rule *r,
		       struct plan *p, int g, struct strbuf *stream,
		       struct strbuf *base, int *changed)
{
	char err[256];
	int i;

	*changed = 0;
	for (i = 0; i < p->nfiles; i++) {
		struct file_plan *f = &p->files[i];
		struct strbuf out = STRBUF_INIT, refused = STRBUF_INIT;
		struct stat st;
		char *path, *buf;
		size_t len;
		int rc;

		if (f->group != g)
			continue;
		path = xasprintf("%s/%s", s->dir, f->path);
		if (stat(path, &st) || read_whole_file(path, &buf, &len)) {
			error_msg("%s: %s", path, strerror(errno));
			free(path);
			return SERIES_FAILED;
		}
		free(path);
		rc = edits_apply(buf, len, f->e, f->n, &out, &refused, err,
				 sizeof(err));
		if (rc) {
			error_msg("%s:%s", f->path, err);
			free(buf);
			sb_release(&out);
			sb_release(&refused);
			return SERIES_BAD_INPUT;
		}
		note_refused(r, p, f, &refused);
		sb_release(&refused);
		add_file(base, f->path, st.st_mode, buf, len);
		if (out.len != len || (len && memcmp(out.buf, buf, len))) {
			add_file(stream, f->path, st.st_mode, out.buf,
				 out.len);
			++*changed;
		}
		free(buf);
		sb_release(&out);
	}
	return 0;
}

/* The identity as fast-import reads it: no angle brackets, no newline. */
static void add_ident(struct strbuf *sb, const char *text)
{
	for (; *text; text++)
		if (*text != '<' && *text != '>' && *text != '\n')
			sb_addc(sb, *text);
}

/*
 * The base commit (every file of the plan as the tree has it, tagged
 * gfpaudit-base) and every commit of the series after it, in one
 * `git fast-import` on the branch gfpaudit-series: a process per commit
 * (git add, diff, commit and diff --numstat for each) was 93% of the
 * time of a 291-patch series, and `git add` + `git commit` of the base
 * another fifth of what was left.  --depth=0: no deltas between a file's
 * versions, half of fast-import's time for a pack that is never sent.
 * A group whose edits change no byte makes no commit.
 */
static int commit_groups(struct scratch *s, const struct rule *r,
			 struct plan *p, struct group_stat *gs,
			 const char *name, const char *email,
			 const char *author, int *ncommits)
{
	static const char *const fi[] = {"fast-import", "--quiet",
					 "--date-format=now", "--depth=0",
					 NULL};
	struct strbuf stream = STRBUF_INIT, files = STRBUF_INIT;
	struct strbuf base = STRBUF_INIT, committer = STRBUF_INIT;
	int g, i, rc = 0, changed;

	*ncommits = 0;
	sb_adds(&committer, "committer ");
	add_ident(&committer, name);
	sb_adds(&committer, " <");
	add_ident(&committer, email);
	sb_adds(&committer, "> now\n");
	sb_adds(&base, "commit refs/heads/gfpaudit-series\nmark :1\n");
	sb_add(&base, committer.buf, committer.len);
	add_data(&base, "base", 4);
	for (g = 0; g < p->ngroups && !rc; g++) {
		char *msg;

		files.len = 0;
		rc = apply_group(s, r, p, g, &files, &base, &changed);
		if (rc || !changed)
			continue; /* nothing changed in this group */
		count_group(r, p, g, &gs[g]);
		for (i = 0; i < p->nfiles; i++)
			if (p->files[i].group == g)
				gs[g].files++;
		msg = commit_message(r, p, &p->groups[g], &gs[g], author);
		sb_adds(&stream, "commit refs/heads/gfpaudit-series\n");
		sb_add(&stream, committer.buf, committer.len);
		add_data(&stream, msg, strlen(msg));
		sb_add(&stream, files.buf, files.len);
		sb_addc(&stream, '\n');
		gs[g].subject = xstrndup(msg, strcspn(msg, "\n"));
		free(msg);
		++*ncommits;
	}
	if (!rc && *ncommits) {
		sb_adds(&base, "\nreset refs/tags/gfpaudit-base\nfrom :1\n\n");
		sb_add(&base, stream.buf, stream.len);
		if (scratch_git_input(s, base.buf, base.len, fi))
			rc = SERIES_FAILED;
	}
	sb_release(&stream);
	sb_release(&files);
	sb_release(&base);
	sb_release(&committer);
	return rc;
}

/*
 * How the series was made and what it does, in numbers: the cover
 * letter's last paragraph, or the notes of a patch sent alone.  Nothing
 * of the machine that made it (paths, options): it is mailed.
 */
static char *series_about(const struct rule *r, const struct plan *p,
			  const struct series_opts *o, int ncommits)
{
	struct strbuf sb = STRBUF_INIT, para = STRBUF_INIT;
	struct kversion kv;

	sb_addf(&para, "Found by gfpaudit %s (rule %s)", GFPAUDIT_VERSION,
		r->name);
	if (ktree_version(o->tree, &kv) == 0)
		sb_addf(&para, " in Linux %s", kv.text);
	sb_adds(&para, ". Every edit is at a line and column the scan "
		       "recorded; nothing else in the files is touched.");
	/*
	 * What the companion does of this series, as its rule says; a rule
	 * that does not say claims nothing for it.
	 */
	if (r->cocci)
		sb_addf(&para,
			" %s, beside the patches, is a semantic patch for "
			"spatch (make coccicheck MODE=patch COCCI=%s): %s",
			r->cocci, r->cocci,
			r->cocci_covers ? r->cocci_covers
					: "it was not checked against this "
					  "series; review what it finds on "
					  "its own.");
	if (r->action == RULE_ADD)
		sb_addf(&para, "\n\nStatistics: %s added at %d site%s",
			r->add_flag, p->uses, p->uses == 1 ? "" : "s");
	else
		sb_addf(&para, "\n\nStatistics: %d use%s converted", p->uses,
			p->uses == 1 ? "" : "s");
	if (p->via_param)
		sb_addf(&para, " (%d to the caller's gfp_t parameter)",
			p->via_param);
	if (p->definitions || p->tables)
		sb_addf(&para,
			", %d definition%s and %d flag-name table "
			"entr%s removed",
			p->definitions, p->definitions == 1 ? "" : "s",
			p->tables, p->tables == 1 ? "y" : "ies");
	sb_addf(&para, ", in %d file%s", p->nfiles, p->nfiles == 1 ? "" : "s");
	if (ncommits > 1)
		sb_addf(&para, " and %d patches", ncommits);
	sb_addc(&para, '.');
	if (p->skipped)
		sb_addf(&para,
			" %d use%s could not be converted "
			"automatically and %s left for review.",
			p->skipped, p->skipped == 1 ? "" : "s",
			p->skipped == 1 ? "is" : "are");
	if (p->refused)
		sb_addf(&para,
			" %d planned edit%s changed other tokens than the "
			"plan named and %s left out.",
			p->refused, p->refused == 1 ? "" : "s",
			p->refused == 1 ? "was" : "were");
	add_wrapped(&sb, para.buf);
	sb_release(&para);
	return sb_detach(&sb);
}

static char *cover_blurb(const struct rule *r, const char *about)
{
	struct strbuf sb = STRBUF_INIT;

	sb_addf(&sb, "%s.\n\n", r->description);
	if (r->why)
		sb_addf(&sb, "%s\n", r->why);
	sb_adds(&sb, about);
	return sb_detach(&sb);
}

static void maintainers_of(const struct series_opts *o,
			   const struct maintainers *m, const struct plan *p,
			   int g, const char *patch, struct addr_list *to,
			   struct addr_list *cc)
{
	int i;

	if (o->maint == MAINT_NONE)
		return;
	if (o->maint != MAINT_BUILTIN &&
	    get_maintainer_pl(o->tree, patch, to, cc) == 0)
		return;
	for (i = 0; i < p->nfiles; i++)
		if (p->files[i].group == g)
			maintainers_for(m, p->files[i].path, to, cc);
}

static void record_patch(sqlite3 *db, const char *series, const char *rule,
			 int number, const char *file, const char *subject,
			 const struct group_stat *gs)
{
	sqlite3_stmt *st = db_prepare(
		db, "INSERT INTO patches(series, rule, number, file, subject, "
		    "files_changed, insertions, deletions, created_at) "
		    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
	const char *base = strrchr(file, '/');
	char now[32];

	if (!st)
		return;
	iso8601_now(now);
	sqlite3_bind_text(st, 1, series, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, rule, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, number);
	sqlite3_bind_text(st, 4, base ? base + 1 : file, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, subject, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 6, gs ? gs->files : 0);
	sqlite3_bind_int(st, 7, gs ? gs->insertions : 0);
	sqlite3_bind_int(st, 8, gs ? gs->deletions : 0);
	sqlite3_bind_text(st, 9, now, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE)
		error_msg("patches: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
}

/* A series written again into the same directory replaces its rows. */
static void forget_series(sqlite3 *db, const char *series)
{
	sqlite3_stmt *st =
		db_prepare(db, "DELETE FROM patches WHERE series = ?");

	if (!st)
		return;
	sqlite3_bind_text(st, 1, series, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE)
		error_msg("patches: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
}

static void copy_cocci(const struct rule *r, const struct series_opts *o)
{
	char *src, *dst, *buf;
	size_t len;
	FILE *f;

	if (!r->cocci || !o->rules_dir)
		return;
	src = xasprintf("%s/cocci/%s", o->rules_dir, r->cocci);
	dst = xasprintf("%s/%s", o->out, r->cocci);
	if (read_whole_file(src, &buf, &len) == 0) {
		f = fopen(dst, "w");
		if (f) {
			fwrite(buf, 1, len, f);
			fclose(f);
		}
		free(buf);
	} else {
		warn_msg("%s: missing companion semantic patch", src);
	}
	free(src);
	free(dst);
}

/* What every file of the series gets besides its own headers. */
struct series_text {
	int cover;	   /* the listing starts with a cover letter */
	const char *about; /* series_about() */
	const char *base;  /* base-commit hash, or NULL */
};

static char **split_listing(const char *listing, int *nfiles)
{
	char **files = NULL;
	const char *l;

	*nfiles = 0;
	for (l = listing; *l;) {
		size_t n = strcspn(l, "\n");

		if (n) {
			files = xrealloc(files, (size_t)(*nfiles + 1) *
							sizeof(char *));
			files[(*nfiles)++] = xstrndup(l, n);
		}
		l += n;
		if (*l)
			l++;
	}
	return files;
}

static int finish_cover(sqlite3 *db, const struct rule *r,
			const struct plan *p, const struct series_opts *o,
			const char *file, const char *series,
			const struct series_text *t,
			const struct addr_list *maint_to,
			const struct addr_list *maint_cc)
{
	struct addr_list to = {0}, cc = {0};
	char *blurb = cover_blurb(r, t->about);
	const char *prefix = p->ngroups > 1 ? "treewide" : p->groups[0].prefix;
	char *subj = xasprintf("%s: %s", prefix,
			       r->subject ? r->subject : r->description);
	struct mbox_edit e = {.to = &to, .cc = &cc, .subject = subj,
			      .blurb = blurb, .base = t->base};
	int rc;

	mbox_recipients(&o->to, &o->cc, maint_to, maint_cc, &to, &cc);
	rc = mbox_rewrite(file, &e);
	record_patch(db, series, r->name, 0, file, subj, NULL);
	free(subj);
	free(blurb);
	addr_list_free(&to);
	addr_list_free(&cc);
	return rc;
}

/*
 * Files changed and lines added and removed, from the diffstat git
 * format-patch put below the "---" of file (" 2 files changed,
 * 3 insertions(+), 1 deletion(-)"; a count of 0 is left out).  -1
 * (printed) when the file has none.
 */
static int read_diffstat(const char *file, struct group_stat *gs)
{
	char *buf, *l, *end;
	size_t len;
	int rc = -1;

	if (read_whole_file(file, &buf, &len)) {
		error_msg("%s: %s", file, strerror(errno));
		return -1;
	}
	end = strstr(buf, "\n---\n");
	for (l = end; l && rc; l = strchr(l + 1, '\n')) {
		char *nl = strchr(l + 1, '\n'), *ins, *del;

		if (nl)
			*nl = '\0';
		if (sscanf(l + 1, " %d file", &gs->files) == 1 &&
		    strstr(l, " changed")) {
			ins = strstr(l, " insertion");
			del = strstr(l, " deletion");
			gs->insertions = gs->deletions = 0;
			while (ins && ins > l && ins[-1] >= '0' && ins[-1] <= '9')
				ins--;
			while (del && del > l && del[-1] >= '0' && del[-1] <= '9')
				del--;
			if (ins)
				gs->insertions = atoi(ins);
			if (del)
				gs->deletions = atoi(del);
			rc = 0;
		}
		if (nl)
			*nl = '\n';
		if (!nl || !strncmp(l + 1, "diff --git ", 11))
			break;
	}
	free(buf);
	if (rc)
		error_msg("%s: git format-patch wrote no diffstat", file);
	return rc;
}

/*
 * Post-process the files format-patch listed: the cover letter (when
 * there is one) first, then the patches.
 */
static int finish_files(sqlite3 *db, const struct rule *r, struct plan *p,
			const struct series_opts *o, struct group_stat *gs,
			const char *listing, const char *series,
			const struct series_text *t, struct series_stats *st)
{
	struct maintainers *m = NULL;
	struct addr_list all_to = {0}, all_cc = {0};
	char *mbuf = NULL, *mpath = xasprintf("%s/MAINTAINERS", o->tree);
	char **files;
	int nfiles, i, g, num, rc = 0;
	size_t mlen;

	if (o->maint != MAINT_NONE && read_whole_file(mpath, &mbuf, &mlen) == 0)
		m = maintainers_parse(mbuf, mlen);
	free(mbuf);
	free(mpath);
	files = split_listing(listing, &nfiles);
	db_exec(db, "BEGIN");
	forget_series(db, series);
	/* Numbered patches are the groups that produced a commit, in order. */
	for (i = t->cover, g = 0, num = 1; i < nfiles && !rc; i++, g++, num++) {
		struct addr_list to = {0}, cc = {0}, mto = {0}, mcc = {0};
		struct mbox_edit e = {.to = &to, .cc = &cc, .base = t->base,
				      .notes = t->cover ? NULL : t->about};
		int k;

		while (g < p->ngroups && !gs[g].subject)
			g++;
		if (g >= p->ngroups)
			break;
		maintainers_of(o, m, p, g, files[i], &mto, &mcc);
		for (k = 0; k < mto.n; k++)
			addr_add(&all_to, mto.v[k]);
		for (k = 0; k < mcc.n; k++)
			addr_add(&all_cc, mcc.v[k]);
		mbox_recipients(&o->to, &o->cc, &mto, &mcc, &to, &cc);
		rc = read_diffstat(files[i], &gs[g]);
		if (!rc)
			rc = mbox_rewrite(files[i], &e);
		record_patch(db, series, r->name, num, files[i], gs[g].subject,
			     &gs[g]);
		addr_list_free(&to);
		addr_list_free(&cc);
		addr_list_free(&mto);
		addr_list_free(&mcc);
	}
	if (!rc && t->cover && nfiles)
		rc = finish_cover(db, r, p, o, files[0], series, t, &all_to,
				  &all_cc);
	db_exec(db, rc ? "ROLLBACK" : "COMMIT");
	if (!rc) {
		st->files = files;
		st->nfiles = (size_t)nfiles;
	} else {
		for (i = 0; i < nfiles; i++)
			free(files[i]);
		free(files);
	}
	addr_list_free(&all_to);
	addr_list_free(&all_cc);
	maintainers_free(m);
	return rc;
}

/*
 * git format-patch into real, the file names listed in listing.  A patch
 * sent alone has no cover letter: its notes go below its "---".  git's
 * own --rfc is not used: before 2.44 it replaced the subject prefix
 * instead of prefixing it.
 */
static int format_series(struct scratch *s, const struct series_opts *o,
			 const char *real, int cover, struct strbuf *listing)
{
	char *sig = xasprintf("gfpaudit %s", GFPAUDIT_VERSION);
	char *prefix = xasprintf("--subject-prefix=%s%s", o->rfc ? "RFC " : "",
				 o->subject_prefix ? o->subject_prefix
						   : "PATCH");
	char *reroll = o->reroll ? xasprintf("--reroll-count=%d", o->reroll)
				 : NULL;
	const char *fp[12];
	int n = 0, rc;

	fp[n++] = "format-patch";
	if (cover)
		fp[n++] = "--cover-letter";
	fp[n++] = "-o";
	fp[n++] = real;
	fp[n++] = "--signature";
	fp[n++] = sig;
	fp[n++] = prefix;
	if (reroll)
		fp[n++] = reroll;
	fp[n++] = "gfpaudit-base..refs/heads/gfpaudit-series";
	fp[n] = NULL;
	rc = scratch_git(s, listing, NULL, fp);
	free(sig);
	free(prefix);
	free(reroll);
	return rc;
}

int series_write(sqlite3 *db, const struct rule *r, struct plan *p,
		 const struct series_opts *o, struct series_stats *st)
{
	struct scratch s;
	struct group_stat *gs;
	struct strbuf listing = STRBUF_INIT;
	char *name, *email, *author, *about = NULL, real[PATH_MAX];
	int i, rc = 0, ncommits = 0, nothing = 0;

	memset(st, 0, sizeof(*st));
	if (prepare_out(o->out, o->force))
		return SERIES_BAD_INPUT;
	if (!realpath(o->out, real)) {
		error_msg("%s: %s", o->out, strerror(errno));
		return SERIES_BAD_INPUT;
	}
	scratch_identity(o->author, o->tree, &name, &email);
	author = xasprintf("%s <%s>", name, email);
	if (scratch_init(&s, real, name, email)) {
		free(name);
		free(email);
		free(author);
		return SERIES_FAILED;
	}
	for (i = 0; i < p->nfiles && !rc; i++)
		if (scratch_copy_in(&s, o->tree, p->files[i].path))
			rc = SERIES_BAD_INPUT;
	gs = xcalloc((size_t)p->ngroups + 1, sizeof(*gs));
	if (!rc)
		rc = commit_groups(&s, r, p, gs, name, email, author,
				   &ncommits);
	/*
	 * The plan had files but no edit took (the tree already changed):
	 * no series, and not an error, as when the plan is empty.
	 */
	if (!rc && !ncommits)
		nothing = st->nothing = 1;
	if (!rc && !nothing &&
	    format_series(&s, o, real, ncommits > 1, &listing))
		rc = SERIES_FAILED;
	if (!rc && !nothing) {
		struct series_text t = {.cover = ncommits > 1, .base = NULL};
		char head[41];

		if (series_base_commit(&s, o->tree, head) == 0)
			t.base = head;
		about = series_about(r, p, o, ncommits);
		t.about = about;
		if (finish_files(db, r, p, o, gs,
				 listing.buf ? listing.buf : "", real, &t, st))
			rc = SERIES_FAILED;
		copy_cocci(r, o);
	}
	if (o->keep_work) {
		/* Left checked out at the series' last commit. */
		static const char *const co[] = {
			"checkout", "-q", "-f", "gfpaudit-series", NULL};

		if (ncommits)
			scratch_git(&s, NULL, NULL, co);
		st->kept = xstrdup(s.dir);
	}
	scratch_destroy(&s, o->keep_work);
	for (i = 0; i < p->ngroups; i++)
		free(gs[i].subject);
	free(gs);
	free(about);
	sb_release(&listing);
	free(name);
	free(email);
	free(author);
	return rc;
}

void series_stats_free(struct series_stats *st)
{
	size_t i;

	for (i = 0; i < st->nfiles; i++)
		free(st->files[i]);
	free(st->files);
	free(st->kept);
	memset(st, 0, sizeof(*st));
}
