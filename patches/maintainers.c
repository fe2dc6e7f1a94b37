// SPDX-License-Identifier: GPL-2.0
/*
 * To:/Cc: for a patch.  The tree's scripts/get_maintainer.pl is the
 * authority and is used when it exists and perl is installed; otherwise
 * the shared MAINTAINERS parser (lib/maintainers.c) matches the files the
 * same way, for trees without the script and for speed on long series.
 */
#include "patches/maintainers.h"
#include "lib/spawn.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* "list@x.org (moderated for non-subscribers)" -> "list@x.org". */
static void add_list(struct addr_list *cc, const char *s)
{
	char *a = xstrndup(s, strcspn(s, " \t"));

	addr_add(cc, a);
	free(a);
}

/*
 * The entries come most specific first, as get_maintainer.pl lists
 * them.  Only an entry matching by a leading wildcard (THE REST's "*"
 * patterns, depth -1) is a catch-all.
 */
void maintainers_for(const struct maintainers *m, const char *path,
		     struct addr_list *to, struct addr_list *cc)
{
	struct maint_match *v;
	size_t n = maintainers_match(m, path, &v), i, k;
	int specific = n && v[0].depth >= 0;

	for (i = 0; i < n; i++) {
		const struct maint_entry *e = maintainers_entry(m, v[i].entry);

		if (!(v[i].depth < 0 && specific)) {
			for (k = 0; k < e->m.n; k++)
				addr_add(to, e->m.v[k]);
			for (k = 0; k < e->r.n; k++)
				addr_add(cc, e->r.v[k]);
		}
		for (k = 0; k < e->l.n; k++)
			add_list(cc, e->l.v[k]);
	}
	free(v);
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
