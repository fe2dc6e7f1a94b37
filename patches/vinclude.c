// SPDX-License-Identifier: GPL-2.0
/*
 * A .c file that another .c #includes cannot be compiled alone: 4.13's
 * drivers/gpu/drm/i915/selftests/intel_uncore.c knows neither its types
 * nor GFP_KERNEL, which intel_uncore.c, ending with
 *
 *	#if IS_ENABLED(CONFIG_DRM_I915_SELFTEST)
 *	#include "selftests/intel_uncore.c"
 *	#endif
 *
 * brings.  validate checks such a file through its includer, found by
 * reading the tree's .c files' #include lines (once, on first need), with
 * the CONFIG_ options that guard the #include defined, as a .config that
 * builds it would.  On a configured tree the same lines give the objects
 * a touched header is built through (vinclude_users()).
 */
#include "patches/vtool.h"

#include <ctype.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct inc_edge {
	char *included; /* "X" resolved, relative to the tree; <X>: NULL */
	char *includer; /* relative to the tree */
	char *spelled;	/* as the #include writes it */
	int line;	/* of the #include in the includer */
};

struct vincmap {
	struct inc_edge *e;
	int n, cap; /* a tree has about 400,000 #include lines: doubled */
};

char *vinclude_resolve(const char *dir, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	char *joined, *part, *save = NULL;
	char **parts = NULL;
	int n = 0, i, bad = 0;

	if (name[0] == '/')
		return NULL;
	joined = *dir ? xasprintf("%s/%s", dir, name) : xstrdup(name);
	for (part = strtok_r(joined, "/", &save); part && !bad;
	     part = strtok_r(NULL, "/", &save)) {
		if (!strcmp(part, "."))
			continue;
		if (!strcmp(part, "..")) {
			if (!n)
				bad = 1; /* above the tree */
			else
				n--;
			continue;
		}
		parts = xrealloc(parts, (size_t)(n + 1) * sizeof(char *));
		parts[n++] = part;
	}
	for (i = 0; i < n && !bad; i++)
		sb_addf(&sb, "%s%s", i ? "/" : "", parts[i]);
	free(parts);
	free(joined);
	if (bad || !sb.len) {
		sb_release(&sb);
		return NULL;
	}
	return sb_detach(&sb);
}

static struct vincmap *g_map; /* nftw has no user pointer */
static size_t g_tree_len;

/*
 * Record the #include lines of one file: "X" resolved against the
 * file's directory (for a .c included by a .c and for local headers),
 * <X> as it is spelled (for the headers of include/ and the arch's).
 */
static void scan_includer(struct vincmap *m, const char *rel, const char *buf,
			  size_t len)
{
	const char *l = buf, *end = buf + len, *p, *q;
	char *dir, *slash;
	int line = 1;

	dir = xstrdup(rel);
	slash = strrchr(dir, '/');
	*(slash ? slash : dir) = '\0';
	for (; l < end; line++) {
		const char *nl = memchr(l, '\n', (size_t)(end - l));
		const char *le = nl ? nl : end;
		char close;

		for (p = l; p < le && (*p == ' ' || *p == '\t'); p++)
			;
		l = nl ? nl + 1 : end;
		if (p >= le || *p != '#')
			continue;
		for (p++; p < le && (*p == ' ' || *p == '\t'); p++)
			;
		if (le - p <= 7 || memcmp(p, "include", 7))
			continue;
		for (p += 7; p < le && (*p == ' ' || *p == '\t'); p++)
			;
		close = p < le && *p == '<' ? '>' : '"';
		q = p < le && (*p == '"' || *p == '<')
			    ? memchr(p + 1, close, (size_t)(le - p - 1))
			    : NULL;
		if (!q || q - p < 2)
			continue;
		if (m->n == m->cap) {
			m->cap = m->cap ? 2 * m->cap : 1024;
			m->e = xrealloc(m->e, (size_t)m->cap * sizeof(*m->e));
		}
		m->e[m->n].spelled = xstrndup(p + 1, (size_t)(q - p - 1));
		m->e[m->n].included =
			close == '"' ? vinclude_resolve(dir, m->e[m->n].spelled)
				     : NULL;
		m->e[m->n].includer = xstrdup(rel);
		m->e[m->n++].line = line;
	}
	free(dir);
}

static int visit(const char *path, const struct stat *st, int type,
		 struct FTW *ftw)
{
	char *buf;
	size_t len;

	(void)st;
	if (type == FTW_D && ftw->level > 0 &&
	    (!strcmp(path + ftw->base, ".git") ||
	     !strcmp(path + ftw->base, "Documentation")))
		return FTW_SKIP_SUBTREE;
	if (type != FTW_F || !str_has_suffix(path, ".c") ||
	    read_whole_file(path, &buf, &len))
		return FTW_CONTINUE;
	scan_includer(g_map, path + g_tree_len + 1, buf, len);
	free(buf);
	return FTW_CONTINUE;
}

void vincmap_free(struct vincmap *m)
{
	int i;

	if (!m)
		return;
	for (i = 0; i < m->n; i++) {
		free(m->e[i].included);
		free(m->e[i].includer);
		free(m->e[i].spelled);
	}
	free(m->e);
	free(m);
}

/* Is the CONFIG_ name at s negated (`!defined(X)`, `!IS_ENABLED(X)`)? */
static int negated(const char *cond, const char *s)
{
	static const char *const words[] = {"defined",	    "IS_ENABLED",
					    "IS_BUILTIN",   "IS_MODULE",
					    "IS_REACHABLE", NULL};
	const char *p = s;
	int k;
	size_t n;

	for (;;) {
		while (p > cond &&
		       (isspace((unsigned char)p[-1]) || p[-1] == '('))
			p--;
		for (k = 0; words[k]; k++) {
			n = strlen(words[k]);
			if ((size_t)(p - cond) >= n &&
			    !memcmp(p - n, words[k], n))
				break;
		}
		if (!words[k])
			break;
		p -= strlen(words[k]);
	}
	return p > cond && p[-1] == '!';
}

static void add_configs(const char *cond, char ***defs, int *n)
{
	const char *s = cond, *e;
	int k;

	while ((s = strstr(s, "CONFIG_"))) {
		if (s > cond &&
		    (isalnum((unsigned char)s[-1]) || s[-1] == '_')) {
			s += 7;
			continue;
		}
		for (e = s + 7; isalnum((unsigned char)*e) || *e == '_'; e++)
			;
		if (!negated(cond, s)) {
			char *d = xasprintf("-D%.*s=1", (int)(e - s), s);

			for (k = 0; k < *n && strcmp((*defs)[k], d); k++)
				;
			if (k < *n) {
				free(d);
			} else {
				*defs = xrealloc(*defs, (size_t)(*n + 1) *
								sizeof(char *));
				(*defs)[(*n)++] = d;
			}
		}
		s = e;
	}
}

int vinclude_guards(const char *buf, size_t len, int line, char ***defs)
{
	struct frame {
		char *cond; /* NULL: the branch is not selected by defining */
	} *st = NULL;
	const char *l = buf, *end = buf + len, *p;
	int depth = 0, n = 0, i, cur = 1;

	*defs = NULL;
	for (; l < end && cur < line; cur++) {
		const char *nl = memchr(l, '\n', (size_t)(end - l));
		const char *le = nl ? nl : end;
		size_t w;

		for (p = l; p < le && isspace((unsigned char)*p); p++)
			;
		if (p < le && *p == '#') {
			for (p++; p < le && isspace((unsigned char)*p); p++)
				;
			for (w = 0; p + w < le && isalpha((unsigned char)p[w]);
			     w++)
				;
			if ((w == 2 && !memcmp(p, "if", 2)) ||
			    (w == 5 && !memcmp(p, "ifdef", 5)) ||
			    (w == 6 && !memcmp(p, "ifndef", 6))) {
				st = xrealloc(st, (size_t)(depth + 1) *
							  sizeof(*st));
				st[depth++].cond =
					w == 6 ? NULL
					       : xstrndup(p + w,
							  (size_t)(le - p - w));
			} else if (depth && w == 4 && !memcmp(p, "elif", 4)) {
				free(st[depth - 1].cond);
				st[depth - 1].cond =
					xstrndup(p + w, (size_t)(le - p - w));
			} else if (depth && w == 4 && !memcmp(p, "else", 4)) {
				free(st[depth - 1].cond);
				st[depth - 1].cond = NULL;
			} else if (depth && w == 5 && !memcmp(p, "endif", 5)) {
				free(st[--depth].cond);
			}
		}
		l = nl ? nl + 1 : end;
	}
	for (i = 0; i < depth; i++) {
		if (st[i].cond)
			add_configs(st[i].cond, defs, &n);
		free(st[i].cond);
	}
	free(st);
	return n;
}

/* The tree's #include lines, read on first need. */
static struct vincmap *incmap(struct vctx *c)
{
	if (!c->incmap) {
		c->incmap = xcalloc(1, sizeof(*c->incmap));
		g_map = c->incmap;
		g_tree_len = strlen(c->o->tree);
		while (g_tree_len > 1 && c->o->tree[g_tree_len - 1] == '/')
			g_tree_len--;
		nftw(c->o->tree, visit, 32, FTW_PHYS | FTW_ACTIONRETVAL);
		g_map = NULL;
	}
	return c->incmap;
}

int vinclude_find(struct vctx *c, const char *path, struct vincluder *inc)
{
	struct vincmap *m;
	char *file, *buf;
	size_t len;
	int i, best = -1;

	memset(inc, 0, sizeof(*inc));
	m = incmap(c);
	/* The first includer by name, whatever order the walk had. */
	for (i = 0; i < m->n; i++)
		if (m->e[i].included && !strcmp(m->e[i].included, path) &&
		    strcmp(m->e[i].includer, path) &&
		    (best < 0 ||
		     strcmp(m->e[i].includer, m->e[best].includer) < 0))
			best = i;
	if (best < 0)
		return -1;
	inc->path = xstrdup(m->e[best].includer);
	inc->spelled = xstrdup(m->e[best].spelled);
	inc->line = m->e[best].line;
	file = xasprintf("%s/%s", c->o->tree, inc->path);
	if (!read_whole_file(file, &buf, &len)) {
		inc->ndefines =
			vinclude_guards(buf, len, inc->line, &inc->defines);
		free(buf);
	}
	free(file);
	return 0;
}

void vincluder_free(struct vincluder *inc)
{
	int i;

	for (i = 0; i < inc->ndefines; i++)
		free(inc->defines[i]);
	free(inc->defines);
	free(inc->path);
	free(inc->spelled);
	memset(inc, 0, sizeof(*inc));
}

/*
 * The name <X> under which the tree's include directories (kbuild's -I
 * list: include/, include/uapi/, the arch's include/ and include/uapi/)
 * offer header path, or NULL.
 */
static const char *system_name(const char *path, const char *arch)
{
	static const char *const dirs[] = {"include/uapi/", "include/", NULL};
	const char *rest = path;
	size_t al = arch ? strlen(arch) : 0;
	int i;

	if (str_has_prefix(path, "arch/")) {
		if (!arch || strncmp(path + 5, arch, al) || path[5 + al] != '/')
			return NULL;
		rest = path + 5 + al + 1;
	}
	for (i = 0; dirs[i]; i++)
		if (str_has_prefix(rest, dirs[i]))
			return rest + strlen(dirs[i]);
	return NULL;
}

/* The length of the directory part a and b have in common. */
static size_t common_dir(const char *a, const char *b)
{
	size_t i, last = 0;

	for (i = 0; a[i] && a[i] == b[i]; i++)
		if (a[i] == '/')
			last = i + 1;
	return last;
}

static const char *g_target; /* qsort has no user pointer */

static int nearest_first(const void *x, const void *y)
{
	const char *a = *(char *const *)x, *b = *(char *const *)y;
	size_t ca = common_dir(a, g_target), cb = common_dir(b, g_target);

	if (ca != cb)
		return ca > cb ? -1 : 1;
	return strcmp(a, b);
}

int vinclude_users(struct vctx *c, const char *path, const char *arch,
		   char ***users)
{
	struct vincmap *m = incmap(c);
	const char *sys = system_name(path, arch);
	char **v = NULL;
	int i, j, n = 0;

	for (i = 0; i < m->n; i++) {
		const struct inc_edge *e = &m->e[i];

		if (!str_has_suffix(e->includer, ".c") ||
		    !((e->included && !strcmp(e->included, path)) ||
		      (sys && !strcmp(e->spelled, sys))))
			continue;
		for (j = 0; j < n && strcmp(v[j], e->includer); j++)
			;
		if (j < n)
			continue;
		v = xrealloc(v, (size_t)(n + 1) * sizeof(char *));
		v[n++] = xstrdup(e->includer);
	}
	g_target = path;
	if (n)
		qsort(v, (size_t)n, sizeof(char *), nearest_first);
	g_target = NULL;
	*users = v;
	return n;
}
