// SPDX-License-Identifier: GPL-2.0
/*
 * MAINTAINERS parsing and path -> subsystem lookup, as a pure function
 * over the file's text (no I/O), so that it can be unit-tested and fuzzed.
 * The matching follows scripts/get_maintainer.pl (see maintainers.h);
 * wildcards are matched with fnmatch(3) rather than a home-made matcher.
 */
#include "reports/maintainers.h"
#include "lib/util.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

struct mpattern {
	char *glob;	/* the pattern with '*' appended: a prefix match */
	size_t litlen;	/* length of the literal prefix before a wildcard */
	int slashes;	/* '/' count of the pattern */
	int depth;	/* precision, as get_maintainer.pl ranks it */
	int is_dir;	/* ends in '/' */
	int literal;	/* no wildcard at all */
	int exclude;	/* an X: line */
	size_t section;
};

struct msection {
	char *title;
	size_t first, end; /* its patterns: [first, end) */
};

struct maint_index {
	struct msection *sec;
	size_t nsec, asec;
	struct mpattern *pat;
	size_t npat, apat;
};

static int count_slashes(const char *s, size_t n)
{
	int k = 0;
	size_t i;

	for (i = 0; i < n && s[i]; i++)
		k += s[i] == '/';
	return k;
}

static void add_section(struct maint_index *m, const char *title, size_t n)
{
	struct msection *s;

	if (m->nsec == m->asec) {
		m->asec = m->asec ? 2 * m->asec : 256;
		m->sec = xrealloc(m->sec, m->asec * sizeof(*m->sec));
	}
	s = &m->sec[m->nsec++];
	s->title = xstrndup(title, n);
	s->first = s->end = m->npat;
}

static void add_pattern(struct maint_index *m, const char *v, size_t n,
			int exclude)
{
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
	p->section = m->nsec - 1;
	m->sec[m->nsec - 1].end = m->npat;
}

/* One "X:\tvalue" line of the current section. */
static void parse_field(struct maint_index *m, const char *line, size_t n,
			const char *title, size_t tlen, int *have_title)
{
	char tag = line[0];
	size_t i = 2;

	if (tag != 'F' && tag != 'X')
		return;
	while (i < n && (line[i] == ' ' || line[i] == '\t'))
		i++;
	while (n > i && isspace((unsigned char)line[n - 1]))
		n--;
	if (i == n || !title)
		return;
	if (!*have_title) {
		add_section(m, title, tlen);
		*have_title = 1;
	}
	add_pattern(m, line + i, n - i, tag == 'X');
}

struct maint_index *maint_index_parse(const char *buf, size_t len)
{
	struct maint_index *m = xcalloc(1, sizeof(*m));
	const char *p = buf, *end = buf + len, *title = NULL;
	size_t tlen = 0;
	int have_title = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (n && p[n - 1] == '\r')
			n--;
		if (n >= 2 && isupper((unsigned char)p[0]) && p[1] == ':') {
			parse_field(m, p, n, title, tlen, &have_title);
		} else if (n == 0) {
			title = NULL;
		} else if (!title || have_title) {
			/* A non-field line after a blank (or a section) is a title. */
			title = p;
			tlen = n;
			while (tlen && isspace((unsigned char)title[tlen - 1]))
				tlen--;
			have_title = 0;
			if (!tlen)
				title = NULL;
		}
		p = nl ? nl + 1 : end;
	}
	return m;
}

void maint_index_free(struct maint_index *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->nsec; i++)
		free(m->sec[i].title);
	for (i = 0; i < m->npat; i++)
		free(m->pat[i].glob);
	free(m->sec);
	free(m->pat);
	free(m);
}

size_t maint_index_count(const struct maint_index *m)
{
	return m ? m->nsec : 0;
}

/*
 * Does P match PATH?  Sets *depth to the precision of the match: a literal
 * file pattern that turns out to name a directory of PATH counts as that
 * directory pattern.
 */
static int pattern_matches(const struct mpattern *p, const char *path,
			   int path_slashes, int *depth)
{
	size_t plen = p->litlen;

	if (strncmp(path, p->glob, plen))
		return 0;
	*depth = p->depth;
	/*
	 * A literal file pattern names that file, or a directory of PATH
	 * (get_maintainer.pl appends the '/' after checking the disk).
	 */
	if (p->literal && !p->is_dir)
		return path[plen] == '\0' || path[plen] == '/';
	if (fnmatch(p->glob, path, 0))
		return 0;
	return p->is_dir || path_slashes == p->slashes;
}

static int section_excludes(const struct maint_index *m, size_t s,
			    const char *path, int path_slashes)
{
	size_t i;
	int d;

	for (i = m->sec[s].first; i < m->sec[s].end; i++)
		if (m->pat[i].exclude &&
		    pattern_matches(&m->pat[i], path, path_slashes, &d))
			return 1;
	return 0;
}

const char *maint_index_lookup(const struct maint_index *m, const char *path)
{
	int slashes = count_slashes(path, strlen(path)), best = -2, d;
	size_t i, best_sec = 0;

	if (!m)
		return NULL;
	for (i = 0; i < m->npat; i++) {
		const struct mpattern *p = &m->pat[i];

		if (p->exclude || p->depth <= best)
			continue;
		if (!pattern_matches(p, path, slashes, &d) || d <= best)
			continue;
		if (section_excludes(m, p->section, path, slashes))
			continue;
		best = d;
		best_sec = p->section;
	}
	return best > -2 ? m->sec[best_sec].title : NULL;
}
