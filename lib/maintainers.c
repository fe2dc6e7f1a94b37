// SPDX-License-Identifier: GPL-2.0
/*
 * MAINTAINERS parsing and path matching, as pure functions over the file's
 * text (no I/O), so that they can be unit-tested and fuzzed.  The matching
 * follows scripts/get_maintainer.pl (see maintainers.h); wildcards are
 * matched with fnmatch(3) and N: patterns with regcomp(3) rather than a
 * home-made matcher.
 */
#include "lib/maintainers.h"
#include "lib/util.h"

#include <ctype.h>
#include <fnmatch.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

/* An F: or X: pattern. */
struct mpattern {
	char *glob;	/* the pattern with '*' appended: a prefix match */
	size_t litlen;	/* the literal prefix before any wildcard */
	int slashes;	/* '/' count of the pattern */
	int depth;	/* precision, as get_maintainer.pl ranks it */
	int is_dir;	/* ends in '/' */
	int literal;	/* no wildcard at all */
	int exclude;	/* an X: line */
	size_t entry;
};

/* A compiled N: pattern. */
struct mregex {
	regex_t re;
	size_t entry;
};

struct maintainers {
	struct maint_entry *e;
	size_t ne, ae;
	struct mpattern *pat;
	size_t npat, apat;
	struct mregex *rx;
	size_t nrx;
	size_t nfiles; /* entries with has_files */
};

/* Below any real depth (THE REST's patterns rank -1). */
#define NO_MATCH (-2)

static int count_slashes(const char *s, size_t n)
{
	int k = 0;
	size_t i;

	for (i = 0; i < n && s[i]; i++)
		k += s[i] == '/';
	return k;
}

static void strv_add(struct maint_strv *sv, const char *s, size_t n)
{
	sv->v = xrealloc(sv->v, (sv->n + 1) * sizeof(*sv->v));
	sv->v[sv->n++] = xstrndup(s, n);
}

static void strv_free(struct maint_strv *sv)
{
	size_t i;

	for (i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
}

static struct maint_entry *add_entry(struct maintainers *m, const char *title,
				     size_t n)
{
	struct maint_entry *e;

	if (m->ne == m->ae) {
		m->ae = m->ae ? 2 * m->ae : 256;
		m->e = xrealloc(m->e, m->ae * sizeof(*m->e));
	}
	e = &m->e[m->ne++];
	memset(e, 0, sizeof(*e));
	e->title = xstrndup(title, n);
	e->pat_first = e->pat_end = m->npat;
	return e;
}

static void add_pattern(struct maintainers *m, const char *v, size_t n,
			int exclude)
{
	struct maint_entry *e = &m->e[m->ne - 1];
	struct mpattern *p;

	if (m->npat == m->apat) {
		m->apat = m->apat ? 2 * m->apat : 1024;
		m->pat = xrealloc(m->pat, m->apat * sizeof(*m->pat));
	}
	p = &m->pat[m->npat++];
	p->glob = xasprintf("%.*s*", (int)n, v);
	p->litlen = strcspn(p->glob, "*?[\\");
	p->literal = p->litlen == n;
	p->slashes = count_slashes(v, n);
	p->is_dir = v[n - 1] == '/';
	p->depth = p->slashes + !p->is_dir;
	/* get_maintainer.pl: a pattern starting with a wildcard ranks last. */
	if (v[0] == '*')
		p->depth = -1;
	p->exclude = exclude;
	p->entry = m->ne - 1;
	e->pat_end = m->npat;
	if (!e->has_files) {
		e->has_files = 1;
		m->nfiles++;
	}
}

/*
 * Kernel N: patterns are short plain regexes (6.1 has no '{', '+' or
 * back-reference in any).  glibc's regcomp(3) copies the operand of every
 * bounded repetition and of every '+', so they nest multiplicatively
 * ("a{255}{255}{255}" is 16M nodes, "a+++...+" doubles per '+'), and
 * back-references make regexec(3) exponential: a pattern with a bound, a
 * back-reference or more than a few '+' is not used, rather than let one
 * line of input exhaust memory or time.
 */
static int regex_is_tame(const char *s, size_t n)
{
	size_t i;
	int plus = 0;

	if (n > 256)
		return 0;
	for (i = 0; i < n; i++) {
		if (s[i] == '{' || (s[i] == '+' && ++plus > 4))
			return 0;
		if (s[i] == '\\' && i + 1 < n &&
		    isdigit((unsigned char)s[i + 1]))
			return 0;
	}
	return 1;
}

static void add_regex(struct maintainers *m, const char *v, size_t n)
{
	struct maint_entry *e = &m->e[m->ne - 1];
	char *s;

	strv_add(&e->n, v, n);
	s = e->n.v[e->n.n - 1];
	if (!regex_is_tame(s, n))
		return;
	m->rx = xrealloc(m->rx, (m->nrx + 1) * sizeof(*m->rx));
	/* A regex that does not compile matches nothing, as before. */
	if (regcomp(&m->rx[m->nrx].re, s, REG_EXTENDED | REG_NOSUB))
		return;
	m->rx[m->nrx++].entry = m->ne - 1;
}

/* One "T:\tvalue" line of the current entry. */
static void parse_field(struct maintainers *m, const char *line, size_t n)
{
	struct maint_entry *e = &m->e[m->ne - 1];
	size_t i = 2;
	const char *v;

	while (i < n && (line[i] == ' ' || line[i] == '\t'))
		i++;
	while (n > i && isspace((unsigned char)line[n - 1]))
		n--;
	/*
	 * A NUL byte is no part of a real MAINTAINERS file, and the C
	 * strings made of the value would be shorter than it.
	 */
	if (i == n || memchr(line + i, '\0', n - i))
		return;
	v = line + i;
	n -= i;
	switch (line[0]) {
	case 'M':
		strv_add(&e->m, v, n);
		break;
	case 'R':
		strv_add(&e->r, v, n);
		break;
	case 'L':
		strv_add(&e->l, v, n);
		break;
	case 'K':
		strv_add(&e->k, v, n);
		break;
	case 'N':
		add_regex(m, v, n);
		break;
	case 'F':
	case 'X':
		add_pattern(m, v, n, line[0] == 'X');
		break;
	default: /* S:, W:, T:, B:, C:, P:, Q: ... are not needed */
		break;
	}
}

static int is_field(const char *p, size_t n)
{
	return n >= 2 && isupper((unsigned char)p[0]) && p[1] == ':';
}

struct maintainers *maintainers_parse(const char *buf, size_t len)
{
	struct maintainers *m = xcalloc(1, sizeof(*m));
	const char *p = buf, *end = buf + len, *title = NULL;
	size_t tlen = 0;
	int in_entry = 0; /* the last field went to an entry of TITLE */

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (n && p[n - 1] == '\r')
			n--;
		if (is_field(p, n)) {
			/* Fields before any title (the preamble) are unused. */
			if (title && !in_entry) {
				add_entry(m, title, tlen);
				in_entry = 1;
			}
			if (in_entry)
				parse_field(m, p, n);
		} else if (n == 0) {
			title = NULL;
			in_entry = 0;
		} else if (!title || in_entry) {
			/*
			 * A non-field line after a blank (or after an entry's
			 * fields) is a title; the prose lines after it are not.
			 */
			title = p;
			tlen = n;
			while (tlen && isspace((unsigned char)title[tlen - 1]))
				tlen--;
			in_entry = 0;
			if (!tlen)
				title = NULL;
		}
		p = nl ? nl + 1 : end;
	}
	return m;
}

void maintainers_free(struct maintainers *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->ne; i++) {
		struct maint_entry *e = &m->e[i];

		free(e->title);
		strv_free(&e->m);
		strv_free(&e->r);
		strv_free(&e->l);
		strv_free(&e->n);
		strv_free(&e->k);
	}
	for (i = 0; i < m->npat; i++)
		free(m->pat[i].glob);
	for (i = 0; i < m->nrx; i++)
		regfree(&m->rx[i].re);
	free(m->e);
	free(m->pat);
	free(m->rx);
	free(m);
}

size_t maintainers_count(const struct maintainers *m)
{
	return m ? m->nfiles : 0;
}

size_t maintainers_nentries(const struct maintainers *m)
{
	return m ? m->ne : 0;
}

const struct maint_entry *maintainers_entry(const struct maintainers *m,
					    size_t i)
{
	return m && i < m->ne ? &m->e[i] : NULL;
}

/*
 * Does P match PATH?  A literal file pattern also matches below itself,
 * as the directory get_maintainer.pl would have found on the disk.
 */
static int pattern_matches(const struct mpattern *p, const char *path,
			   int path_slashes)
{
	size_t plen = p->litlen;

	if (strncmp(path, p->glob, plen))
		return 0;
	if (p->literal && !p->is_dir)
		return path[plen] == '\0' || path[plen] == '/';
	if (fnmatch(p->glob, path, 0))
		return 0;
	return p->is_dir || path_slashes == p->slashes;
}

static int entry_excludes(const struct maintainers *m, size_t entry,
			  const char *path, int path_slashes)
{
	const struct maint_entry *e = &m->e[entry];
	size_t i;

	for (i = e->pat_first; i < e->pat_end; i++)
		if (m->pat[i].exclude &&
		    pattern_matches(&m->pat[i], path, path_slashes))
			return 1;
	return 0;
}

static int regex_matches(const struct mregex *r, const char *path)
{
	return regexec(&r->re, path, 0, NULL, 0) == 0;
}

static int by_depth(const void *a, const void *b)
{
	const struct maint_match *x = a, *y = b;

	if (x->depth != y->depth)
		return x->depth > y->depth ? -1 : 1;
	return x->entry < y->entry ? -1 : x->entry > y->entry;
}

size_t maintainers_match(const struct maintainers *m, const char *path,
			 struct maint_match **out)
{
	int slashes = count_slashes(path, strlen(path));
	int *depth;
	size_t i, n = 0;

	*out = NULL;
	if (!m || !m->ne)
		return 0;
	depth = xmalloc(m->ne * sizeof(*depth));
	for (i = 0; i < m->ne; i++)
		depth[i] = NO_MATCH;
	for (i = 0; i < m->npat; i++) {
		const struct mpattern *p = &m->pat[i];

		if (!p->exclude && p->depth > depth[p->entry] &&
		    pattern_matches(p, path, slashes))
			depth[p->entry] = p->depth;
	}
	for (i = 0; i < m->nrx; i++)
		if (depth[m->rx[i].entry] < 0 && regex_matches(&m->rx[i], path))
			depth[m->rx[i].entry] = 0;
	for (i = 0; i < m->ne; i++)
		if (depth[i] != NO_MATCH && entry_excludes(m, i, path, slashes))
			depth[i] = NO_MATCH;
	for (i = 0; i < m->ne; i++) {
		if (depth[i] == NO_MATCH)
			continue;
		*out = xrealloc(*out, (n + 1) * sizeof(**out));
		(*out)[n].entry = i;
		(*out)[n++].depth = depth[i];
	}
	free(depth);
	if (n > 1)
		qsort(*out, n, sizeof(**out), by_depth);
	return n;
}

const struct maint_entry *maintainers_best(const struct maintainers *m,
					   const char *path)
{
	int slashes = count_slashes(path, strlen(path)), best = NO_MATCH;
	size_t i, best_entry = 0;

	if (!m)
		return NULL;
	/* Patterns are in file order: the first at a depth wins ties. */
	for (i = 0; i < m->npat; i++) {
		const struct mpattern *p = &m->pat[i];

		if (p->exclude || p->depth <= best ||
		    !pattern_matches(p, path, slashes) ||
		    entry_excludes(m, p->entry, path, slashes))
			continue;
		best = p->depth;
		best_entry = p->entry;
	}
	/*
	 * An N: match ranks 0: it beats only the wildcard patterns (an F:
	 * pattern never ranks 0), and an earlier entry's F: at -1 loses to
	 * a later entry's N: too.  At equal depth the earlier entry wins,
	 * as in maintainers_match().
	 */
	for (i = 0; i < m->nrx && best <= 0; i++) {
		const struct mregex *r = &m->rx[i];

		if ((best == 0 && r->entry >= best_entry) ||
		    !regex_matches(r, path) ||
		    entry_excludes(m, r->entry, path, slashes))
			continue;
		best = 0;
		best_entry = r->entry;
	}
	return best != NO_MATCH ? &m->e[best_entry] : NULL;
}
