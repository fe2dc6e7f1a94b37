// SPDX-License-Identifier: GPL-2.0
/*
 * The per-file and per-patch checks of `gfpaudit validate`.
 *
 * A file is compiled (clang -fsyntax-only) and checked (sparse) twice,
 * before and after the series, with the same flags; only diagnostics in
 * the file itself that the "after" run has and the "before" run has not
 * count.  That makes the check meaningful on an unconfigured tree and for
 * other arches: the arch's own headers are used (arch/ARCH/include, the
 * shared include/), with clang targeting that arch, and headers that only
 * a configured build generates are replaced by empty shims, created as
 * clang asks for them.  A GFP_KENREL typo in an arch/powerpc file is then
 * a new "use of undeclared identifier" error on a line the patch added.
 * On a configured tree sparse goes through kbuild (`make C=2`, vkbuild.c)
 * for the objects the .config builds, with the same before/after rule.
 */
#include "patches/validate.h"
#include "lib/karch.h"
#include "lib/spawn.h"
#include "patches/scratch.h"
#include "patches/vkbuild.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_SHIM_ROUNDS 60

struct vctx {
	const struct vopts *o;
	char *scratch;
	char *shim;
	char *resource_include; /* clang's own stddef.h etc. */
	int configured;		/* the tree has include/generated */
	int have_clang, have_sparse, have_perl;
	char *checkpatch;
	struct vkbuild *kb; /* sparse through kbuild, configured trees */
};

struct diag {
	int line;
	char *msg;
};

struct diags {
	struct diag *d;
	int n;
};

static void diags_free(struct diags *d)
{
	int i;

	for (i = 0; i < d->n; i++)
		free(d->d[i].msg);
	free(d->d);
	d->d = NULL;
	d->n = 0;
}

static char *first_line(const char *s)
{
	return xstrndup(s, strcspn(s, "\n"));
}

struct vctx *vctx_new(const struct vopts *o, const char *scratch)
{
	struct vctx *c = xcalloc(1, sizeof(*c));
	char *gen = xasprintf("%s/include/generated/autoconf.h", o->tree);
	struct strbuf out = STRBUF_INIT;
	char *argv[] = {"clang", "-print-resource-dir", NULL};
	struct spawn_opts so = {.out = &out, .quiet = 1};
	struct stat st;

	c->o = o;
	c->scratch = xstrdup(scratch);
	c->shim = xasprintf("%s/.gfpaudit-shim", scratch);
	mkdir_p(c->shim);
	c->configured = stat(gen, &st) == 0;
	free(gen);
	c->have_clang = have_program("clang");
	c->have_sparse = have_program("sparse");
	c->have_perl = have_program("perl");
	if (c->configured && c->have_sparse && !o->no_sparse)
		c->kb = vkbuild_new(o->tree, scratch);
	if (c->have_clang && run_argv(argv, &so) == 0 && out.len) {
		char *d = first_line(out.buf);

		c->resource_include = xasprintf("%s/include", d);
		free(d);
	}
	sb_release(&out);
	c->checkpatch = xasprintf("%s/scripts/checkpatch.pl", o->tree);
	if (stat(c->checkpatch, &st)) {
		free(c->checkpatch);
		c->checkpatch = NULL;
	}
	return c;
}

void vctx_free(struct vctx *c)
{
	if (!c)
		return;
	free(c->scratch);
	free(c->shim);
	free(c->resource_include);
	free(c->checkpatch);
	vkbuild_free(c->kb);
	free(c);
}

static char *arch_of(const struct vctx *c, const char *path)
{
	if (str_has_prefix(path, "arch/")) {
		const char *a = path + 5;

		return xstrndup(a, strcspn(a, "/"));
	}
	return xstrdup(c->o->arch && *c->o->arch ? c->o->arch : "x86");
}

struct argv_b {
	char **v;
	int n;
};

static void av_add(struct argv_b *a, char *s)
{
	a->v = xrealloc(a->v, (size_t)(a->n + 2) * sizeof(char *));
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

static void av_free(struct argv_b *a)
{
	int i;

	for (i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
}

/*
 * Include paths as kbuild orders them (arch, then generic; uapi after),
 * with the scratch copy first for the "after" run so headers the series
 * changes are seen changed.
 */
static void add_includes(struct vctx *c, struct argv_b *a, const char *arch,
			 const char *path, int after)
{
	static const char *const dirs[] = {"arch/%s/include",
					   "arch/%s/include/generated",
					   "include",
					   "arch/%s/include/uapi",
					   "arch/%s/include/generated/uapi",
					   "include/uapi",
					   "include/generated/uapi",
					   NULL};
	const char *slash = strrchr(path, '/');
	char *dir =
		slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup(".");
	char *kconfig = xasprintf("%s/include/linux/kconfig.h", c->o->tree);
	struct stat st;
	int i;

	av_add(a, xasprintf("-iquote%s/%s", c->o->tree, dir));
	av_add(a, xasprintf("-I%s", c->shim));
	for (i = 0; dirs[i]; i++) {
		char *d = xasprintf(dirs[i], arch);

		if (after)
			av_add(a, xasprintf("-I%s/%s", c->scratch, d));
		av_add(a, xasprintf("-I%s/%s", c->o->tree, d));
		free(d);
	}
	if (stat(kconfig, &st) == 0) {
		av_add(a, xstrdup("-include"));
		av_add(a, kconfig);
	} else {
		free(kconfig);
	}
	av_add(a, xstrdup("-D__KERNEL__"));
	av_add(a, xstrdup("-DKBUILD_MODNAME=\"gfpaudit\""));
	av_add(a, xstrdup("-DKBUILD_BASENAME=\"gfpaudit\""));
	free(dir);
}

/*
 * Parse "FILE:LINE:COL: KIND: MSG" lines about file itself; a missing
 * header ("'x.h' file not found" / "unable to open 'x.h'") goes to
 * *missing.
 */
static void parse_diags(const char *out, const char *file, const char *kind,
			struct diags *d, char **missing)
{
	size_t fl = strlen(file);
	const char *l = out;

	while (*l) {
		size_t n = strcspn(l, "\n");
		const char *q;

		if (missing && !*missing) {
			const char *m = memmem(l, n, "' file not found", 16);
			const char *u = memmem(l, n, "unable to open '", 16);

			if (m) {
				const char *s = m;

				while (s > l && s[-1] != '\'')
					s--;
				if (s > l)
					*missing = xstrndup(s, (size_t)(m - s));
			} else if (u) {
				const char *s = u + 16;
				const char *e =
					memchr(s, '\'', n - (size_t)(s - l));

				if (e)
					*missing = xstrndup(s, (size_t)(e - s));
			}
		}
		if (n > fl && !strncmp(l, file, fl) && l[fl] == ':') {
			char *end;
			long line = strtol(l + fl + 1, &end, 10);

			q = strstr(end, kind);
			if (q && q < l + n && *end == ':') {
				const char *msg = q + strlen(kind);

				d->d = xrealloc(d->d, (size_t)(d->n + 1) *
							      sizeof(*d->d));
				d->d[d->n].line = (int)line;
				d->d[d->n++].msg =
					xstrndup(msg, (size_t)(l + n - msg));
			}
		}
		l += n;
		if (*l)
			l++;
	}
}

/* Create an empty shim for a missing header; 0 when one was made. */
static int make_shim(struct vctx *c, const char *name)
{
	char *p, *slash;
	FILE *f;

	if (!path_is_safe_relative(name))
		return -1;
	p = xasprintf("%s/%s", c->shim, name);
	if (access(p, F_OK) == 0) {
		free(p);
		return -1; /* already there: not a missing-file problem */
	}
	slash = strrchr(p, '/');
	*slash = '\0';
	mkdir_p(p);
	*slash = '/';
	f = fopen(p, "w");
	if (f)
		fclose(f);
	free(p);
	return f ? 0 : -1;
}

enum tool { TOOL_CLANG, TOOL_SPARSE, TOOL_CPP };

/* Run the tool on file until no header is missing; diagnostics into d. */
static int run_tool(struct vctx *c, enum tool t, const char *file,
		    const char *path, int after, struct diags *d, int *shims,
		    struct strbuf *pp)
{
	char *arch = arch_of(c, path);
	int round, rc = 0;

	for (round = 0; round < MAX_SHIM_ROUNDS; round++) {
		struct argv_b a = {0};
		struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
		struct spawn_opts so = {.out = &out, .err = &err};
		const char *target = karch_triple(arch);
		char *missing = NULL;

		if (t == TOOL_CLANG || t == TOOL_CPP) {
			av_add(&a, xstrdup("clang"));
			if (target)
				av_add(&a, xasprintf("--target=%s", target));
			if (t == TOOL_CPP) {
				av_add(&a, xstrdup("-E"));
				av_add(&a, xstrdup("-dD"));
			} else {
				av_add(&a, xstrdup("-fsyntax-only"));
			}
			av_add(&a, xstrdup("-nostdinc"));
			if (c->resource_include) {
				av_add(&a, xstrdup("-isystem"));
				av_add(&a, xstrdup(c->resource_include));
			}
			av_add(&a, xstrdup("-std=gnu11"));
			av_add(&a, xstrdup("-Wno-everything"));
			av_add(&a, xstrdup("-ferror-limit=0"));
			av_add(&a, xstrdup("-fno-caret-diagnostics"));
			av_add(&a, xstrdup("-fno-color-diagnostics"));
		} else {
			av_add(&a, xstrdup("sparse"));
			av_add(&a, xasprintf("--arch=%s", !strcmp(arch, "x86")
								  ? "x86_64"
								  : arch));
			av_add(&a, xstrdup("-nostdinc"));
			if (c->resource_include) {
				av_add(&a, xstrdup("-isystem"));
				av_add(&a, xstrdup(c->resource_include));
			}
			av_add(&a, xstrdup("-fmax-warnings=unlimited"));
			av_add(&a, xstrdup("-fmax-errors=unlimited"));
		}
		add_includes(c, &a, arch, path, after);
		av_add(&a, xstrdup(file));
		if (run_argv(a.v, &so) < 0)
			rc = -1;
		diags_free(d);
		parse_diags(err.buf ? err.buf : "", file,
			    t == TOOL_CLANG ? " error: " : " warning: ", d,
			    &missing);
		if (t == TOOL_SPARSE)
			parse_diags(err.buf ? err.buf : "", file, " error: ", d,
				    NULL);
		if (pp) {
			sb_reset(pp);
			sb_add(pp, out.buf ? out.buf : "", out.len);
		}
		sb_release(&out);
		sb_release(&err);
		av_free(&a);
		if (!missing || make_shim(c, missing)) {
			free(missing);
			break;
		}
		free(missing);
		++*shims;
	}
	free(arch);
	return rc;
}

/* Diagnostics of after that before lacks (by message, as a multiset). */
static int new_diags(const struct diags *before, const struct diags *after,
		     const struct vpatch *p, int k, struct strbuf *detail)
{
	char *used = xcalloc((size_t)before->n + 1, 1);
	int i, j, n = 0;

	for (i = 0; i < after->n; i++) {
		int found = 0;

		for (j = 0; j < before->n && !found; j++)
			if (!used[j] &&
			    !strcmp(before->d[j].msg, after->d[i].msg))
				used[j] = found = 1;
		if (found)
			continue;
		if (n++ < 3)
			sb_addf(detail, "%s%d: %s%s", n > 1 ? "; " : "",
				after->d[i].line, after->d[i].msg,
				vpatch_touches_line(p, k, after->d[i].line)
					? " (a line this patch changed)"
					: "");
	}
	free(used);
	return n;
}

static void compare_tool(struct vctx *c, enum tool t, const struct vpatch *p,
			 int k, const char *before_file, const char *after_file,
			 struct vresults *r)
{
	const char *check = t == TOOL_CLANG ? "compile" : "sparse";
	struct diags b = {0}, a = {0};
	struct strbuf detail = STRBUF_INIT;
	int shims_b = 0, shims_a = 0, n;

	if (run_tool(c, t, before_file, p->paths[k], 0, &b, &shims_b, NULL) ||
	    run_tool(c, t, after_file, p->paths[k], 1, &a, &shims_a, NULL)) {
		vres_add(r, p->name, p->paths[k], check, "skip",
			 "could not run %s",
			 t == TOOL_CLANG ? "clang" : "sparse");
		return;
	}
	/* A shim made for "after" changes the inputs: redo "before". */
	if (shims_a)
		run_tool(c, t, before_file, p->paths[k], 0, &b, &shims_b, NULL);
	n = new_diags(&b, &a, p, k, &detail);
	if (n)
		vres_add(r, p->name, p->paths[k], check, "fail",
			 "%d new %s: %s", n,
			 t == TOOL_CLANG ? "error(s)" : "warning(s)",
			 detail.buf);
	else
		vres_add(r, p->name, p->paths[k], check, "pass",
			 "no new %s (%d before, %d after; %s headers)",
			 t == TOOL_CLANG ? "errors" : "warnings", b.n, a.n,
			 c->configured ? "configured" : "shimmed");
	sb_release(&detail);
	diags_free(&a);
	diags_free(&b);
}

/*
 * sparse through kbuild on an object the .config builds: `make C=2` on
 * the before and the after content.  Returns -1 (the direct call is made
 * instead) when make fails without a diagnostic of the file's own.
 */
static int compare_kbuild(struct vctx *c, const struct vpatch *p, int k,
			  const char *before_file, const char *after_file,
			  struct vresults *r)
{
	const char *files[2] = {before_file, after_file};
	struct diags d[2] = {{0}, {0}};
	struct strbuf detail = STRBUF_INIT;
	char args[128];
	int i, n, rc = 0;

	for (i = 0; i < 2 && !rc; i++) {
		struct strbuf out = STRBUF_INIT;
		int st = vkbuild_sparse(c->kb, p->paths[k], files[i], &out);
		const char *text = out.buf ? out.buf : "";

		parse_diags(text, p->paths[k], " warning: ", &d[i], NULL);
		parse_diags(text, p->paths[k], " error: ", &d[i], NULL);
		if (st < 0 || (st && !d[i].n))
			rc = -1;
		sb_release(&out);
	}
	vkbuild_args(c->kb, args, sizeof(args));
	if (!rc) {
		n = new_diags(&d[0], &d[1], p, k, &detail);
		if (n)
			vres_add(r, p->name, p->paths[k], "sparse", "fail",
				 "%d new warning(s) (kbuild: %s): %s", n, args,
				 detail.buf);
		else
			vres_add(r, p->name, p->paths[k], "sparse", "pass",
				 "no new warnings (kbuild: %s; %d before, %d "
				 "after)",
				 args, d[0].n, d[1].n);
	}
	sb_release(&detail);
	diags_free(&d[0]);
	diags_free(&d[1]);
	return rc;
}

static int is_id(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

static int has_word(const char *text, size_t len, const char *w, size_t n)
{
	const char *p = text, *end = text + len;

	while (p < end && (p = memmem(p, (size_t)(end - p), w, n))) {
		if ((p == text || !is_id(p[-1])) &&
		    (p + n == end || !is_id(p[n])))
			return 1;
		p += n;
	}
	return 0;
}

/*
 * The identifiers of line l (code only: strings, char literals and
 * comments skipped) that buf[] lacks, into out (space-separated).
 */
static void new_idents(const char *l, size_t n, const char *before, size_t blen,
		       struct strbuf *out)
{
	size_t i = 0;
	const char *t = l;

	while (t < l + n && (*t == ' ' || *t == '\t'))
		t++;
	if (t < l + n && *t == '*')
		return; /* a comment's continuation line */
	while (i < n) {
		char ch = l[i];

		if (ch == '"' || ch == '\'') {
			for (i++; i < n && l[i] != ch; i++)
				if (l[i] == '\\')
					i++;
			i++;
		} else if (ch == '/' && i + 1 < n && l[i + 1] == '/') {
			return;
		} else if (ch == '/' && i + 1 < n && l[i + 1] == '*') {
			const char *e = memmem(l + i + 2, n - i - 2, "*/", 2);

			if (!e)
				return;
			i = (size_t)(e - l) + 2;
		} else if (is_id(ch) && !isdigit((unsigned char)ch) &&
			   (i == 0 || !is_id(l[i - 1]))) {
			size_t s = i;

			while (i < n && is_id(l[i]))
				i++;
			if (!has_word(before, blen, l + s, i - s) &&
			    !has_word(out->buf ? out->buf : "", out->len, l + s,
				      i - s)) {
				sb_add(out, l + s, i - s);
				sb_addc(out, ' ');
			}
		} else {
			i++;
		}
	}
}

/*
 * Identifiers a patch brings into a file must exist: be a macro or a
 * name the preprocessed file (with its headers) has.  This catches a typo
 * on a line inside an #ifdef branch that the parse configuration does not
 * compile, which no compiler run would report.
 */
/*
 * Keep of the preprocessor output only what comes from other files (the
 * headers, with their #defines from -dD): a name the patch itself wrote
 * does not declare itself.  Line markers are `# N "file"`.
 */
static void strip_main_file(struct strbuf *pp, const char *file)
{
	struct strbuf keep = STRBUF_INIT;
	const char *l = pp->buf ? pp->buf : "";
	size_t fl = strlen(file);
	int in_main = 0;

	while (*l) {
		size_t n = strcspn(l, "\n");

		if (n > 2 && l[0] == '#' && l[1] == ' ' &&
		    isdigit((unsigned char)l[2])) {
			const char *q = memchr(l, '"', n);

			in_main = q && (size_t)(l + n - q) > fl + 1 &&
				  !strncmp(q + 1, file, fl) && q[fl + 1] == '"';
		} else if (!in_main) {
			sb_add(&keep, l, n);
			sb_addc(&keep, '\n');
		}
		l += n;
		if (*l)
			l++;
	}
	sb_release(pp);
	*pp = keep;
}

/* The after file's lines the patch did not touch, for declarations. */
static void untouched_lines(const char *a, const struct vpatch *p, int k,
			    struct strbuf *out)
{
	const char *l = a;
	int line = 1;

	for (; *l; line++) {
		size_t n = strcspn(l, "\n");

		if (!vpatch_touches_line(p, k, line)) {
			sb_add(out, l, n);
			sb_addc(out, '\n');
		}
		l += n;
		if (*l)
			l++;
	}
}

static void check_new_names(struct vctx *c, const struct vpatch *p, int k,
			    const char *before_file, const char *after_file,
			    struct vresults *r)
{
	struct strbuf cand = STRBUF_INIT, pp = STRBUF_INIT, bad = STRBUF_INIT;
	struct diags none = {0};
	char *b = NULL, *a = NULL;
	size_t blen = 0, alen = 0;
	int line = 1, shims = 0, nbad = 0;
	const char *l, *w;

	if (read_whole_file(before_file, &b, &blen) ||
	    read_whole_file(after_file, &a, &alen))
		goto out;
	for (l = a; *l; line++) {
		size_t n = strcspn(l, "\n");

		if (vpatch_touches_line(p, k, line))
			new_idents(l, n, b, blen, &cand);
		l += n;
		if (*l)
			l++;
	}
	if (!cand.len) {
		vres_add(r, p->name, p->paths[k], "compile", "pass",
			 "names: no identifier new to the file");
		goto out;
	}
	run_tool(c, TOOL_CPP, after_file, p->paths[k], 1, &none, &shims, &pp);
	strip_main_file(&pp, after_file);
	untouched_lines(a, p, k, &pp);
	for (w = cand.buf; *w;) {
		size_t n = strcspn(w, " ");

		if (!has_word(pp.buf ? pp.buf : "", pp.len, w, n)) {
			if (nbad++ < 3)
				sb_addf(&bad, "%s%.*s", bad.len ? ", " : "",
					(int)n, w);
		}
		w += n;
		while (*w == ' ')
			w++;
	}
	if (nbad)
		vres_add(
			r, p->name, p->paths[k], "compile", "fail",
			"names: undeclared identifier%s on lines this patch "
			"changed: "
			"%s (neither a macro nor declared with the %s headers)",
			nbad > 1 ? "s" : "", bad.buf,
			c->configured ? "configured" : "shimmed");
	else
		vres_add(r, p->name, p->paths[k], "compile", "pass",
			 "names: every new identifier is declared: %s",
			 cand.buf);
out:
	diags_free(&none);
	free(a);
	free(b);
	sb_release(&cand);
	sb_release(&pp);
	sb_release(&bad);
}

void vcheck_file(struct vctx *c, const struct vpatch *p, int k,
		 const char *before_file, const char *after_file,
		 struct vresults *r)
{
	if (!str_has_suffix(p->paths[k], ".c")) {
		if (!c->o->no_compile)
			vres_add(r, p->name, p->paths[k], "compile", "skip",
				 "not a .c file (its users are compiled "
				 "when touched; removals: see impact)");
		return;
	}
	if (!c->o->no_compile) {
		if (c->have_clang) {
			compare_tool(c, TOOL_CLANG, p, k, before_file,
				     after_file, r);
			check_new_names(c, p, k, before_file, after_file, r);
		} else
			vres_add(r, p->name, p->paths[k], "compile", "skip",
				 "clang is not installed");
	}
	if (!c->o->no_sparse) {
		if (c->have_sparse && c->kb &&
		    vkbuild_builds(c->kb, p->paths[k]) &&
		    !compare_kbuild(c, p, k, before_file, after_file, r))
			;
		else if (c->have_sparse)
			compare_tool(c, TOOL_SPARSE, p, k, before_file,
				     after_file, r);
		else
			vres_add(r, p->name, p->paths[k], "sparse", "skip",
				 "sparse is not installed");
	}
}

/* "ERROR:TYPE: message" lines of checkpatch --show-types output. */
static void checkpatch_errors(struct vctx *c, const char *file, int no_signoff,
			      struct diags *d)
{
	char *argv[] = {"perl",
			c->checkpatch,
			"--no-tree",
			"--show-types",
			"--no-summary",
			"--color=never",
			no_signoff ? "--no-signoff" : "--signoff",
			(char *)file,
			NULL};
	struct strbuf out = STRBUF_INIT;
	struct spawn_opts so = {.cwd = c->o->tree, .out = &out, .quiet = 1};
	const char *l;

	run_argv(argv, &so);
	for (l = out.buf ? out.buf : ""; *l;) {
		size_t n = strcspn(l, "\n");

		if (!strncmp(l, "ERROR:", 6)) {
			d->d = xrealloc(d->d,
					(size_t)(d->n + 1) * sizeof(*d->d));
			d->d[d->n].line = 0;
			d->d[d->n++].msg = xstrndup(l, n);
		}
		l += n;
		if (*l)
			l++;
	}
	sb_release(&out);
}

void vcheck_checkpatch(struct vctx *c, const struct vpatch *p,
		       const char *reverse_file, struct vresults *r)
{
	struct diags fwd = {0}, rev = {0};
	struct strbuf detail = STRBUF_INIT;
	int i, j, n = 0;

	if (c->o->no_checkpatch)
		return;
	if (!c->checkpatch || !c->have_perl) {
		vres_add(r, p->name, NULL, "checkpatch", "skip", "%s",
			 c->checkpatch
				 ? "perl is not installed"
				 : "the tree has no scripts/checkpatch.pl");
		return;
	}
	checkpatch_errors(c, p->file, 0, &fwd);
	if (reverse_file)
		checkpatch_errors(c, reverse_file, 1, &rev);
	/*
	 * checkpatch judges added lines only; an error the reverse patch
	 * has too is about the original line, not this change.
	 */
	for (i = 0; i < fwd.n; i++) {
		int old = 0;

		for (j = 0; j < rev.n && !old; j++)
			old = !strcmp(fwd.d[i].msg, rev.d[j].msg);
		if (old)
			continue;
		if (n++ < 3)
			sb_addf(&detail, "%s%s", n > 1 ? "; " : "",
				fwd.d[i].msg);
	}
	if (n)
		vres_add(r, p->name, NULL, "checkpatch", "fail",
			 "%d error(s): %s", n, detail.buf);
	else
		vres_add(r, p->name, NULL, "checkpatch", "pass",
			 "no new errors (%d pre-existing)", fwd.n);
	sb_release(&detail);
	diags_free(&fwd);
	diags_free(&rev);
}
