// SPDX-License-Identifier: GPL-2.0
/*
 * Running clang and sparse for `gfpaudit validate` (vcheck.c compares
 * the runs): the file's own arch headers (arch/ARCH/include, the shared
 * include/) in kbuild's order, clang targeting that arch, and headers
 * that only a configured build generates replaced by empty shims,
 * created as the tool asks for them.
 */
#include "patches/vtool.h"
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

void diags_free(struct diags *d)
{
	int i;

	for (i = 0; i < d->n; i++)
		free(d->d[i].msg);
	free(d->d);
	d->d = NULL;
	d->n = 0;
	d->errors = 0;
	d->status = 0;
}

static char *first_line(const char *s)
{
	return xstrndup(s, strcspn(s, "\n"));
}

struct vctx *vctx_new(const struct vopts *o, const char *scratch,
		      vfetch_fn *fetch, void *fetch_arg)
{
	struct vctx *c = xcalloc(1, sizeof(*c));
	char *gen = xasprintf("%s/include/generated/autoconf.h", o->tree);
	struct strbuf out = STRBUF_INIT;
	char *argv[] = {"clang", "-print-resource-dir", NULL};
	struct spawn_opts so = {.out = &out, .quiet = 1};
	struct stat st;

	c->o = o;
	c->fetch = fetch;
	c->fetch_arg = fetch_arg;
	c->scratch = xstrdup(scratch);
	c->shim = xasprintf("%s/.gfpaudit-shim", scratch);
	mkdir_p(c->shim);
	c->configured = stat(gen, &st) == 0;
	free(gen);
	c->have_clang = have_program("clang");
	c->have_sparse = have_program("sparse");
	c->have_perl = have_program("perl");
	if (c->configured &&
	    (!o->no_compile || (c->have_sparse && !o->no_sparse)))
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
	vincmap_free(c->incmap);
	vkmemo_free(c->kmemo);
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
static void add_includes(struct vctx *c, struct argv_b *a, enum tool t,
			 const char *arch, const char *path, int after,
			 const char *also)
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

	/*
	 * The file's own directory, for its "local.h" headers: the copy
	 * checked is elsewhere.  sparse (0.6.4) ignores -iquote, and a
	 * header it cannot open stops it, so it gets -I.
	 */
	av_add(a, xasprintf("%s%s/%s", t == TOOL_SPARSE ? "-I" : "-iquote",
			    c->o->tree, dir));
	if (also) {
		/* The included file's own directory, for its headers. */
		slash = strrchr(also, '/');
		free(dir);
		dir = slash ? xstrndup(also, (size_t)(slash - also))
			    : xstrdup(".");
		av_add(a,
		       xasprintf("%s%s/%s", t == TOOL_SPARSE ? "-I" : "-iquote",
				 c->o->tree, dir));
	}
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

static int path_char(char ch)
{
	return isalnum((unsigned char)ch) || strchr("_./-+", ch);
}

/*
 * Does msg[0..end) end with a file name (a path whose last part has a dot
 * and letters after it: slab.c, gfp_types.h)?
 */
static int ends_with_file(const char *msg, size_t end)
{
	size_t s = end;

	while (s > 0 && path_char(msg[s - 1]))
		s--;
	while (end > s && isalpha((unsigned char)msg[end - 1]))
		end--;
	return end > s + 1 && msg[end - 1] == '.' &&
	       isalpha((unsigned char)msg[end]);
}

char *diag_normalise(const char *msg, const char *const *prefixes)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i = 0, n = strlen(msg), k, pl;
	int j;

	while (i < n) {
		for (j = 0; prefixes && prefixes[j]; j++) {
			pl = strlen(prefixes[j]);
			if (pl && !strncmp(msg + i, prefixes[j], pl))
				break;
		}
		if (prefixes && prefixes[j]) {
			i += pl;
			continue;
		}
		if (msg[i] == ':' && i + 1 < n &&
		    isdigit((unsigned char)msg[i + 1]) && sb.len &&
		    ends_with_file(sb.buf, sb.len)) {
			/* ":LINE" and ":COL" after a file name */
			for (k = i; k < n && msg[k] == ':' && k + 1 < n &&
				    isdigit((unsigned char)msg[k + 1]);) {
				k++;
				while (k < n && isdigit((unsigned char)msg[k]))
					k++;
			}
			i = k;
			continue;
		}
		sb_addc(&sb, msg[i++]);
	}
	return sb_detach(&sb) ?: xstrdup("");
}

int count_errors(const char *out)
{
	const char *l = out;
	int n = 0;

	while (*l) {
		size_t len = strcspn(l, "\n");

		n += memmem(l, len, " error: ", 8) != NULL;
		l += len;
		if (*l)
			l++;
	}
	return n;
}

/*
 * Parse "FILE:LINE:COL: KIND: MSG" lines about file itself; a missing
 * header ("'x.h' file not found" / "unable to open 'x.h'") goes to
 * *missing.
 */
void parse_diags(const char *out, const char *file, const char *kind,
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

/* The tool's command line, but the file and the include options. */
static void tool_argv(struct vctx *c, enum tool t, const char *arch,
		      struct argv_b *a)
{
	const char *target = karch_triple(arch);

	if (t == TOOL_CLANG || t == TOOL_CPP) {
		av_add(a, xstrdup("clang"));
		if (target)
			av_add(a, xasprintf("--target=%s", target));
		av_add(a, xstrdup(t == TOOL_CPP ? "-E" : "-fsyntax-only"));
		if (t == TOOL_CPP)
			av_add(a, xstrdup("-dD"));
		av_add(a, xstrdup("-nostdinc"));
		if (c->resource_include) {
			av_add(a, xstrdup("-isystem"));
			av_add(a, xstrdup(c->resource_include));
		}
		av_add(a, xstrdup("-std=gnu11"));
		av_add(a, xstrdup("-Wno-everything"));
		av_add(a, xstrdup("-ferror-limit=0"));
		av_add(a, xstrdup("-fno-caret-diagnostics"));
		av_add(a, xstrdup("-fno-color-diagnostics"));
	} else {
		av_add(a, xstrdup("sparse"));
		av_add(a, xasprintf("--arch=%s",
				    !strcmp(arch, "x86") ? "x86_64" : arch));
		av_add(a, xstrdup("-nostdinc"));
		if (c->resource_include) {
			av_add(a, xstrdup("-isystem"));
			av_add(a, xstrdup(c->resource_include));
		}
		av_add(a, xstrdup("-fmax-warnings=unlimited"));
		av_add(a, xstrdup("-fmax-errors=unlimited"));
	}
}

/* The diagnostics of file in text (clang's errors, sparse's all). */
static void file_diags(const char *text, const char *file, enum tool t,
		       struct diags *d, char **missing)
{
	parse_diags(text, file, t == TOOL_CLANG ? " error: " : " warning: ", d,
		    missing);
	if (t == TOOL_SPARSE)
		parse_diags(text, file, " error: ", d, NULL);
}

/* Those of the includer's own lines, as "INCLUDER:LINE: msg". */
static void includer_diags(const char *text, const struct vunit *u, int after,
			   enum tool t, struct diags *d)
{
	struct diags x = {0};
	int i;

	file_diags(text, u->tu[after], t, &x, NULL);
	for (i = 0; i < x.n; i++) {
		d->d = xrealloc(d->d, (size_t)(d->n + 1) * sizeof(*d->d));
		d->d[d->n].line = 0;
		d->d[d->n++].msg = xasprintf("%s:%d: %s", u->inc->path,
					     x.d[i].line, x.d[i].msg);
	}
	diags_free(&x);
}

int run_tool(struct vctx *c, enum tool t, const struct vunit *u, int after,
	     struct diags *d, int *shims, struct strbuf *pp)
{
	char *arch = arch_of(c, u->path);
	const char *file = u->inc ? u->tu[after] : u->src[after];
	int round, rc = 0, status, i;

	for (round = 0; round < MAX_SHIM_ROUNDS; round++) {
		struct argv_b a = {0};
		struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
		struct spawn_opts so = {.out = &out, .err = &err};
		const char *text;
		char *missing = NULL;

		tool_argv(c, t, arch, &a);
		add_includes(c, &a, t, arch, u->inc ? u->inc->path : u->path,
			     after, u->inc ? u->path : NULL);
		for (i = 0; u->inc && i < u->inc->ndefines; i++)
			av_add(&a, xstrdup(u->inc->defines[i]));
		av_add(&a, xstrdup(file));
		status = run_argv(a.v, &so);
		if (status < 0)
			rc = -1;
		diags_free(d);
		d->status = status;
		text = err.buf ? err.buf : "";
		file_diags(text, u->inc ? u->spelled[after] : u->src[after], t,
			   d, &missing);
		if (u->inc)
			includer_diags(text, u, after, t, d);
		d->errors = count_errors(text);
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
