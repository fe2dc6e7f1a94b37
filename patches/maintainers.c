// SPDX-License-Identifier: GPL-2.0
/*
 * To:/Cc: for a patch.  The tree's scripts/get_maintainer.pl is the
 * authority and is used when it exists and perl is installed; the parser
 * here reads MAINTAINERS the same way (F:/X: patterns, N: regexes) for
 * trees without the script and for speed on long series.
 */
#include "patches/maintainers.h"
#include "lib/spawn.h"

#include <fnmatch.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct maint_section {
	char *title;
	char **m, **r, **l, **f, **x, **nrx;
	int nm, nr, nl, nf, nx, nn;
	int catch_all;
};

void addr_add(struct addr_list *l, const char *a)
{
	int i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], a))
			return;
	l->v = xrealloc(l->v, (size_t)(l->n + 1) * sizeof(char *));
	l->v[l->n++] = xstrdup(a);
}

void addr_list_free(struct addr_list *l)
{
	int i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

static void push(char ***v, int *n, const char *s, size_t len)
{
	*v = xrealloc(*v, (size_t)(*n + 1) * sizeof(char *));
	(*v)[(*n)++] = xstrndup(s, len);
}

/* "list@x.org (moderated for non-subscribers)" -> "list@x.org". */
static size_t list_len(const char *s, size_t len)
{
	const char *sp = memchr(s, ' ', len);

	return sp ? (size_t)(sp - s) : len;
}

void maintainers_parse(const char *buf, size_t len, struct maintainers *m)
{
	struct maint_section *cur = NULL;
	size_t off = 0;

	m->s = NULL;
	m->n = 0;
	while (off < len) {
		const char *line = buf + off,
			   *nl = memchr(line, '\n', len - off);
		size_t n = nl ? (size_t)(nl - line) : len - off;
		const char *v;
		size_t vn;

		off += n + 1;
		while (n && (line[n - 1] == '\r' || line[n - 1] == ' '))
			n--;
		if (!n) {
			cur = NULL;
			continue;
		}
		if (n < 3 || line[1] != ':' ||
		    (line[2] != '\t' && line[2] != ' ')) {
			/* A title line starts a section. */
			m->s = xrealloc(m->s,
					(size_t)(m->n + 1) * sizeof(*cur));
			cur = &m->s[m->n++];
			memset(cur, 0, sizeof(*cur));
			cur->title = xstrndup(line, n);
			continue;
		}
		if (!cur)
			continue;
		v = line + 3;
		vn = n - 3;
		while (vn && (*v == ' ' || *v == '\t')) {
			v++;
			vn--;
		}
		switch (line[0]) {
		case 'M':
			push(&cur->m, &cur->nm, v, vn);
			break;
		case 'R':
			push(&cur->r, &cur->nr, v, vn);
			break;
		case 'L':
			push(&cur->l, &cur->nl, v, list_len(v, vn));
			break;
		case 'F':
			push(&cur->f, &cur->nf, v, vn);
			if ((vn == 1 && *v == '*') ||
			    (vn == 2 && !memcmp(v, "*/", 2)))
				cur->catch_all = 1;
			break;
		case 'X':
			push(&cur->x, &cur->nx, v, vn);
			break;
		case 'N':
			push(&cur->nrx, &cur->nn, v, vn);
			break;
		default:
			break;
		}
	}
}

static void free_v(char **v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void maintainers_free(struct maintainers *m)
{
	int i;

	for (i = 0; i < m->n; i++) {
		struct maint_section *s = &m->s[i];

		free(s->title);
		free_v(s->m, s->nm);
		free_v(s->r, s->nr);
		free_v(s->l, s->nl);
		free_v(s->f, s->nf);
		free_v(s->x, s->nx);
		free_v(s->nrx, s->nn);
	}
	free(m->s);
	m->s = NULL;
	m->n = 0;
}

/*
 * get_maintainer.pl's file patterns: "dir/" matches everything below,
 * a glob matches within one directory level, a plain name matches
 * itself or, when it names a directory, everything below it.
 */
static int pattern_match(const char *pat, const char *path)
{
	size_t n = strlen(pat);

	if (n && pat[n - 1] == '/') {
		if (strpbrk(pat, "*?[")) {
			/* A glob ending in a slash: any depth below. */
			char *g = xasprintf("%s*", pat);
			int m = fnmatch(g, path, 0) == 0;

			free(g);
			return m;
		}
		return !strncmp(pat, path, n);
	}
	if (strpbrk(pat, "*?["))
		return fnmatch(pat, path, FNM_PATHNAME) == 0;
	return !strcmp(pat, path) || (!strncmp(pat, path, n) && path[n] == '/');
}

static int section_matches(const struct maint_section *s, const char *path)
{
	int i, hit = 0;

	for (i = 0; i < s->nx; i++)
		if (pattern_match(s->x[i], path))
			return 0;
	for (i = 0; i < s->nf && !hit; i++)
		hit = pattern_match(s->f[i], path);
	for (i = 0; i < s->nn && !hit; i++) {
		regex_t re;

		if (regcomp(&re, s->nrx[i], REG_EXTENDED | REG_NOSUB))
			continue;
		hit = regexec(&re, path, 0, NULL, 0) == 0;
		regfree(&re);
	}
	return hit;
}

void maintainers_for(const struct maintainers *m, const char *path,
		     struct addr_list *to, struct addr_list *cc)
{
	int i, k, specific = 0;

	for (i = 0; i < m->n; i++)
		if (!m->s[i].catch_all && section_matches(&m->s[i], path))
			specific = 1;
	for (i = 0; i < m->n; i++) {
		const struct maint_section *s = &m->s[i];

		if (!section_matches(s, path))
			continue;
		if (!(s->catch_all && specific)) {
			for (k = 0; k < s->nm; k++)
				addr_add(to, s->m[k]);
			for (k = 0; k < s->nr; k++)
				addr_add(cc, s->r[k]);
		}
		for (k = 0; k < s->nl; k++)
			addr_add(cc, s->l[k]);
	}
}

/*
 * With role statistics each line says what the address is:
 * "Name <a@b> (maintainer:SECTION)", "list@x (open list:SECTION)".
 */
static void parse_gm_output(const char *out, struct addr_list *to,
			    struct addr_list *cc)
{
	const char *p = out;

	while (*p) {
		size_t n = strcspn(p, "\n");
		const char *gt = memchr(p, '>', n), *paren, *q;
		char *addr;

		/* The role is the first '(' after the address. */
		q = gt ? gt : p;
		paren = memchr(q, '(', n - (size_t)(q - p));
		if (n) {
			size_t an = paren ? (size_t)(paren - p) : n;

			while (an && p[an - 1] == ' ')
				an--;
			addr = xstrndup(p, an);
			if (*addr && strchr(addr, '@')) {
				if (paren &&
				    (!strncmp(paren, "(maintainer", 11) ||
				     !strncmp(paren, "(supporter", 10) ||
				     !strncmp(paren, "(odd fixer", 10)))
					addr_add(to, addr);
				else
					addr_add(cc, addr);
			}
			free(addr);
		}
		p += n;
		if (*p)
			p++;
	}
}

int get_maintainer_pl(const char *tree, const char *patch, struct addr_list *to,
		      struct addr_list *cc)
{
	char *script = xasprintf("%s/scripts/get_maintainer.pl", tree);
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	char *argv[] = {"perl",	       script,
			"--no-git",    "--no-git-fallback",
			"--roles",     "--no-rolestats",
			"--no-tree",   "--no-multiline",
			"--separator", "\n",
			(char *)patch, NULL};
	struct spawn_opts o = {.cwd = tree, .out = &out, .err = &err};
	int rc = -1;

	/* --no-multiline with a newline separator: one address a line. */
	if (access(script, R_OK) == 0 && have_program("perl") &&
	    run_argv(argv, &o) == 0) {
		parse_gm_output(out.buf ? out.buf : "", to, cc);
		rc = 0;
	}
	free(script);
	sb_release(&out);
	sb_release(&err);
	return rc;
}
