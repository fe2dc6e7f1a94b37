// SPDX-License-Identifier: GPL-2.0
/*
 * The compile and sparse checks of `gfpaudit validate` through the tree's
 * own kbuild, on a configured tree (issue 17): a touched file's object,
 * or the objects that include a touched header, are built in the farm
 * (vkbuild.c) with the file's content before the series and after it,
 * with the same command, and only what the "after" build says that the
 * "before" build did not counts.  One make run per state gives both
 * gcc's diagnostics and sparse's (C=2, its lines marked "sparse:").
 *
 * A build proves something only about objects that were built before the
 * series with the file: an object that did not build, or whose kbuild
 * record (.o.cmd) does not list the file (an #ifdef, another arch's
 * <asm/...>), proves nothing, and when no object is left the checks are
 * inconclusive, saying why.
 */
#include "patches/vtool.h"
#include "patches/vkbuild.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Split a line of make's output "FILE:L[:C]: [sparse: ]KIND: MSG": the
 * length of FILE, L, and MSG from KIND on.  1 when it is a warning or an
 * error of the tool asked for (sparse's lines carry its prefix, gcc's
 * not); *is_error says which.
 */
static int split_diag(const char *l, int sparse, size_t *fl, long *line,
		      const char **msg, int *is_error)
{
	static const char *const kinds[] = {"warning: ", "error: ",
					    "fatal error: ", NULL};
	char *end = NULL;
	int i;

	*fl = strcspn(l, ": \n");
	if (!*fl || l[*fl] != ':')
		return 0;
	*line = strtol(l + *fl + 1, &end, 10);
	if (*line <= 0 || *end != ':')
		return 0;
	if (isdigit((unsigned char)end[1]))
		strtol(end + 1, &end, 10); /* the column */
	if (*end++ != ':')
		return 0;
	while (*end == ' ')
		end++;
	if (!strncmp(end, "sparse: ", 8) != !!sparse)
		return 0;
	*msg = end + (sparse ? 8 : 0);
	for (i = 0; kinds[i]; i++)
		if (!strncmp(*msg, kinds[i], strlen(kinds[i])))
			break;
	*is_error = i > 0;
	return kinds[i] != NULL;
}

/*
 * gcc's or sparse's diagnostics in make's output into d: those about
 * path with their line, those about other files (a header, the includer)
 * as "FILE:L: kind: MSG" with line 0.  A header's diagnostic comes once
 * per object that includes it: it is kept once.  d->errors counts the
 * errors.
 */
static void kbuild_diags(const char *out, const char *path, int sparse,
			 struct diags *d)
{
	const char *l = out, *msg;
	size_t pl = strlen(path), fl;
	long line;
	int is_error, i, own;

	for (; *l; l += strcspn(l, "\n"), l += *l == '\n') {
		size_t n = strcspn(l, "\n");
		char *m;

		if (!split_diag(l, sparse, &fl, &line, &msg, &is_error))
			continue;
		own = fl == pl && !strncmp(l, path, pl);
		m = own ? xstrndup(msg, (size_t)(l + n - msg))
			: xasprintf("%.*s:%ld: %.*s", (int)fl, l, line,
				    (int)(l + n - msg), msg);
		for (i = 0; i < d->n; i++)
			if (d->d[i].line == (own ? line : 0) &&
			    !strcmp(d->d[i].msg, m))
				break;
		if (i < d->n) {
			free(m);
			continue;
		}
		d->d = xrealloc(d->d, (size_t)(d->n + 1) * sizeof(*d->d));
		d->d[d->n].line = own ? (int)line : 0;
		d->d[d->n++].msg = m;
		d->errors += is_error;
	}
}

/*
 * The last "after" run: when the next patch changes the same file again
 * (a header fixed in two steps), its "before" run would build the same
 * objects from the same content, and the farm still holds them.
 */
struct vkmemo {
	char *path, *objs, *content, *out;
	size_t len;
	int sparse, status;
};

void vkmemo_free(struct vkmemo *m)
{
	if (!m)
		return;
	free(m->path);
	free(m->objs);
	free(m->content);
	free(m->out);
	free(m);
}

/* 1 when the memo is the build of path's file with objs. */
static int memo_is(const struct vkmemo *m, const char *path, const char *objs,
		   const char *file, int sparse)
{
	char *buf;
	size_t len;
	int same;

	if (!m || m->sparse != sparse || strcmp(m->path, path) ||
	    strcmp(m->objs, objs) || read_whole_file(file, &buf, &len))
		return 0;
	same = len == m->len && !memcmp(buf, m->content, len);
	free(buf);
	return same;
}

static void memo_set(struct vctx *c, const char *path, const char *objs,
		     const char *file, int sparse, const char *out, int status)
{
	struct vkmemo *m = xcalloc(1, sizeof(*m));

	vkmemo_free(c->kmemo);
	c->kmemo = NULL;
	if (read_whole_file(file, &m->content, &m->len)) {
		free(m);
		return;
	}
	m->path = xstrdup(path);
	m->objs = xstrdup(objs);
	m->out = xstrdup(out);
	m->sparse = sparse;
	m->status = status;
	c->kmemo = m;
}

/* Why make failed, in one line: its first error, else its last line. */
static char *make_why(const char *out, int status)
{
	const char *l = out, *last = NULL;
	size_t lastn = 0;

	while (*l) {
		size_t n = strcspn(l, "\n");

		if (memmem(l, n, " error: ", 8) || memmem(l, n, "*** ", 4))
			return xstrndup(l, n);
		if (n) {
			last = l;
			lastn = n;
		}
		l += n;
		if (*l)
			l++;
	}
	if (status < 0)
		return xstrdup("make could not run");
	return last ? xstrndup(last, lastn)
		    : xasprintf("make exited with status %d", status);
}

/* "a.o b.o" */
static char *obj_list(char **objs, int n)
{
	struct strbuf sb = STRBUF_INIT;
	int i;

	for (i = 0; i < n; i++)
		sb_addf(&sb, "%s%s", i ? " " : "", objs[i]);
	return sb_detach(&sb) ?: xstrdup("");
}

/* The rows when no object was built with the file before the series. */
static void none_built(struct vctx *c, const struct vpatch *p, int k,
		       char **objs, int nobj, int sparse, const char *out,
		       int status, struct vresults *r)
{
	const char *path = p->paths[k];
	struct strbuf why = STRBUF_INIT;
	char args[160];
	int i;

	vkbuild_args(c->kb, sparse, args, sizeof(args));
	if (nobj == 1 && str_has_suffix(path, ".c") &&
	    !vkbuild_built(c->kb, objs[0])) {
		char *w = make_why(out, status);

		sb_addf(&why, "kbuild could not build %s before the series "
			"(%s %s: %s)", objs[0], args, objs[0], w);
		free(w);
	} else {
		sb_addf(&why, "no object the .config builds was compiled with "
			"it before the series (%s", args);
		for (i = 0; i < nobj; i++)
			sb_addf(&why, "%s %s: %s", i ? ";" : "", objs[i],
				vkbuild_built(c->kb, objs[i])
					? "built without it"
					: "does not build");
		sb_adds(&why, ")");
	}
	if (!c->o->no_compile)
		vres_add(r, p->name, path, "compile", "inconclusive", "%s",
			 why.buf);
	if (sparse)
		vres_add(r, p->name, path, "sparse", "inconclusive", "%s",
			 why.buf);
	sb_release(&why);
}

static void compile_row(struct vctx *c, const struct vpatch *p, int k,
			const char *kb, const char *const out[2],
			const char *broken, int status,
			struct vresults *r)
{
	struct diags d[2] = {{0}, {0}};
	struct strbuf detail = STRBUF_INIT;
	int n;

	kbuild_diags(out[0], p->paths[k], 0, &d[0]);
	kbuild_diags(out[1], p->paths[k], 0, &d[1]);
	n = vdiags_new(c, &d[0], &d[1], p, k, &detail);
	if (n)
		vres_add(r, p->name, p->paths[k], "compile", "fail",
			 "%d new error(s) or warning(s) (kbuild: %s): %s", n,
			 kb, detail.buf);
	else if (broken) {
		char *w = make_why(out[1], status);

		vres_add(r, p->name, p->paths[k], "compile", "fail",
			 "%s does not build after the series (kbuild: %s): %s",
			 broken, kb, w);
		free(w);
	} else
		vres_add(r, p->name, p->paths[k], "compile", "pass",
			 "no new errors or warnings (kbuild: %s; %d before, "
			 "%d after)",
			 kb, d[0].n, d[1].n);
	sb_release(&detail);
	diags_free(&d[0]);
	diags_free(&d[1]);
}

static void sparse_row(struct vctx *c, const struct vpatch *p, int k,
		       const char *kb, const char *const out[2],
		       struct vresults *r)
{
	struct diags d[2] = {{0}, {0}};
	struct strbuf detail = STRBUF_INIT;
	int n;

	kbuild_diags(out[0], p->paths[k], 1, &d[0]);
	kbuild_diags(out[1], p->paths[k], 1, &d[1]);
	n = vdiags_new(c, &d[0], &d[1], p, k, &detail);
	if (n)
		vres_add(r, p->name, p->paths[k], "sparse", "fail",
			 "%d new warning(s) (kbuild: %s): %s", n, kb,
			 detail.buf);
	else if (d[0].errors)
		/* sparse gives up after errors, in the file or a header. */
		vres_add(r, p->name, p->paths[k], "sparse", "inconclusive",
			 "no new warnings, but sparse reported %d error(s) "
			 "before the series (kbuild: %s) and may not have "
			 "checked the file",
			 d[0].errors, kb);
	else
		vres_add(r, p->name, p->paths[k], "sparse", "pass",
			 "no new warnings (kbuild: %s; %d before, %d after)",
			 kb, d[0].n, d[1].n);
	sb_release(&detail);
	diags_free(&d[0]);
	diags_free(&d[1]);
}

int vkcheck_objects(struct vctx *c, const struct vpatch *p, int k,
		    const char *before_file, const char *after_file,
		    char **objs, int nobj, struct vresults *r)
{
	const char *path = p->paths[k];
	int sparse = !c->o->no_sparse && c->have_sparse;
	struct strbuf out[2] = {STRBUF_INIT, STRBUF_INIT};
	const char *text[2];
	char *used[VK_MAX_OBJS], *list, *want, *kb, args[160];
	const char *broken = NULL;
	int i, nused = 0, st[2], rc = 0;

	if (nobj > VK_MAX_OBJS)
		nobj = VK_MAX_OBJS;
	want = obj_list(objs, nobj);
	if (memo_is(c->kmemo, path, want, before_file, sparse)) {
		sb_adds(&out[0], c->kmemo->out);
		st[0] = c->kmemo->status;
	} else {
		vkmemo_free(c->kmemo); /* the farm is about to change */
		c->kmemo = NULL;
		st[0] = vkbuild_put(c->kb, path, before_file)
				? -1
				: vkbuild_make(c->kb, objs, nobj, sparse,
					       &out[0]);
	}
	text[0] = out[0].buf ? out[0].buf : "";
	for (i = 0; i < nobj && st[0] >= 0; i++)
		if (vkbuild_built(c->kb, objs[i]) &&
		    vkbuild_uses(c->kb, objs[i], path))
			used[nused++] = objs[i];
	if (!nused) {
		none_built(c, p, k, objs, nobj, sparse, text[0], st[0], r);
		goto out;
	}
	st[1] = vkbuild_put(c->kb, path, after_file)
			? -1
			: vkbuild_make(c->kb, used, nused, sparse, &out[1]);
	text[1] = out[1].buf ? out[1].buf : "";
	memo_set(c, path, want, after_file, sparse, text[1], st[1]);
	for (i = 0; i < nused && !broken; i++)
		if (st[1] < 0 || !vkbuild_built(c->kb, used[i]))
			broken = used[i];
	list = obj_list(used, nused);
	vkbuild_args(c->kb, 0, args, sizeof(args));
	kb = xasprintf("%s %s", args, list);
	if (!c->o->no_compile)
		compile_row(c, p, k, kb, text, broken, st[1], r);
	free(kb);
	if (sparse && broken) {
		rc = 1; /* make stopped before sparse: the direct call */
	} else if (sparse) {
		vkbuild_args(c->kb, 1, args, sizeof(args));
		kb = xasprintf("%s %s", args, list);
		sparse_row(c, p, k, kb, text, r);
		free(kb);
	}
	free(list);
out:
	free(want);
	sb_release(&out[0]);
	sb_release(&out[1]);
	return rc;
}
