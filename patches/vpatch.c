// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a patch the way validate needs it: which files it touches,
 * which lines it adds (so a diagnostic can be pinned to the patch), which
 * #defines it deletes (so the rest of the tree can be checked for users).
 * Hunk headers' counts delimit hunks, so an mbox signature "-- " is never
 * mistaken for a removed line.
 */
#include "patches/validate.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void vres_add(struct vresults *r, const char *patch, const char *path,
	      const char *check, const char *result, const char *fmt, ...)
{
	struct vresult *v;
	va_list ap;
	char buf[1024];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	r->v = xrealloc(r->v, (size_t)(r->n + 1) * sizeof(*r->v));
	v = &r->v[r->n++];
	v->patch = patch ? xstrdup(patch) : NULL;
	v->path = path ? xstrdup(path) : NULL;
	v->check = check;
	v->result = result;
	v->detail = xstrdup(buf);
}

void vres_free(struct vresults *r)
{
	int i;

	for (i = 0; i < r->n; i++) {
		free(r->v[i].patch);
		free(r->v[i].path);
		free(r->v[i].detail);
	}
	free(r->v);
	r->v = NULL;
	r->n = 0;
}

static int rank(const char *result)
{
	if (!strcmp(result, "fail"))
		return 3;
	if (!strcmp(result, "inconclusive"))
		return 2;
	return !strcmp(result, "pass");
}

void vres_summary(const struct vresults *r, struct vsummary *s)
{
	int i, j, worst;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < r->n; i++) {
		if (!r->v[i].path)
			continue;
		for (j = 0; j < i; j++)
			if (r->v[j].path && !strcmp(r->v[j].path, r->v[i].path))
				break;
		if (j < i)
			continue; /* counted at its first row */
		worst = 0;
		for (j = i; j < r->n; j++)
			if (r->v[j].path &&
			    !strcmp(r->v[j].path, r->v[i].path) &&
			    rank(r->v[j].result) > worst)
				worst = rank(r->v[j].result);
		s->files++;
		if (worst == 3)
			s->fail++;
		else if (worst == 2)
			s->inconclusive++;
		else if (worst == 1)
			s->pass++;
		else
			s->unchecked++;
	}
}

static void add_path(struct vpatch *p, const char *s, size_t n)
{
	p->paths = xrealloc(p->paths, (size_t)(p->npaths + 1) * sizeof(char *));
	p->added = xrealloc(p->added, (size_t)(p->npaths + 1) * sizeof(int *));
	p->nadded = xrealloc(p->nadded, (size_t)(p->npaths + 1) * sizeof(int));
	p->paths[p->npaths] = xstrndup(s, n);
	p->added[p->npaths] = NULL;
	p->nadded[p->npaths] = 0;
	p->npaths++;
}

static void add_line(struct vpatch *p, int line)
{
	int k = p->npaths - 1;

	p->added[k] =
		xrealloc(p->added[k], (size_t)(p->nadded[k] + 1) * sizeof(int));
	p->added[k][p->nadded[k]++] = line;
}

/* "-#define NAME..." or "-# define NAME" -> NAME. */
static void note_define(struct vpatch *p, const char *s, size_t n)
{
	const char *e = s + n, *q;
	int i;

	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	if (s == e || *s != '#')
		return;
	s++;
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	if (e - s < 7 || strncmp(s, "define", 6) ||
	    !isspace((unsigned char)s[6]))
		return;
	s += 6;
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	for (q = s; q < e && (isalnum((unsigned char)*q) || *q == '_'); q++)
		;
	if (q == s)
		return;
	for (i = 0; i < p->nremoved; i++)
		if (strlen(p->removed_defines[i]) == (size_t)(q - s) &&
		    !strncmp(p->removed_defines[i], s, (size_t)(q - s)))
			return;
	p->removed_defines = xrealloc(
		p->removed_defines, (size_t)(p->nremoved + 1) * sizeof(char *));
	p->removed_defines[p->nremoved++] = xstrndup(s, (size_t)(q - s));
}

/* Drop from p's removed defines those that re-added lists (redefined). */
static void subtract_defines(struct vpatch *p, struct vpatch *re)
{
	int i, j, k = 0;

	for (i = 0; i < p->nremoved; i++) {
		int again = 0;

		for (j = 0; j < re->nremoved && !again; j++)
			again = !strcmp(p->removed_defines[i],
					re->removed_defines[j]);
		if (again)
			free(p->removed_defines[i]);
		else
			p->removed_defines[k++] = p->removed_defines[i];
	}
	p->nremoved = k;
	for (j = 0; j < re->nremoved; j++)
		free(re->removed_defines[j]);
	free(re->removed_defines);
}

/*
 * git writes a path holding '"', '\\', a control byte or (core.quotePath,
 * the default) a byte >= 0x80 as a C string: "b/a;x\"y.c".  S points at
 * the opening quote; returns the text (malloc'd) and sets *end past the
 * closing quote, or NULL when it is malformed or would hold a NUL.
 */
static char *unquote_c(const char *s, const char *lim, const char **end)
{
	struct strbuf sb = STRBUF_INIT;
	static const char esc[] = "a\ab\bf\fn\nr\rt\tv\v";

	for (s++; s < lim && *s != '"'; s++) {
		const char *e;
		int c;

		if (*s != '\\') {
			sb_addc(&sb, *s);
			continue;
		}
		if (++s >= lim)
			break;
		e = *s ? strchr(esc, *s) : NULL;
		if (e && (e - esc) % 2 == 0) {
			c = e[1];
		} else if (*s >= '0' && *s <= '3' && lim - s >= 3 &&
			   s[1] >= '0' && s[1] <= '7' && s[2] >= '0' &&
			   s[2] <= '7') {
			c = (s[0] - '0') * 64 + (s[1] - '0') * 8 + (s[2] - '0');
			s += 2;
		} else {
			c = *s; /* \" and \\ */
		}
		if (!c)
			break;
		sb_addc(&sb, (char)c);
	}
	if (s >= lim || *s != '"') {
		sb_release(&sb);
		return NULL;
	}
	*end = s + 1;
	return sb.buf ? sb_detach(&sb) : xstrdup("");
}

/* K bytes "a/P b/P" with both P the same: the length of P, else 0. */
static size_t same_halves(const char *p, size_t k)
{
	size_t half = k > 5 ? (k - 5) / 2 : 0;

	if (!half || k != 2 * half + 5 || strncmp(p, "a/", 2) ||
	    strncmp(p + 2 + half, " b/", 3) ||
	    memcmp(p + 2, p + 5 + half, half))
		return 0;
	return half;
}

/*
 * The new side's path of a "diff --git a/P b/P" line of N bytes.  An
 * unquoted P may itself hold " b/", so the two equal halves are looked
 * for before the first " b/" (a rename, which validate never sees).
 */
static char *header_path(const char *l, size_t n)
{
	const char *p = l + 11, *lim = l + n, *end;
	size_t k = (size_t)(lim - p), half = same_halves(p, k);
	char *b = NULL, *path;

	if (p < lim && *p == '"') {
		char *a = unquote_c(p, lim, &end);

		if (!a || end >= lim || *end != ' ') {
			free(a);
			return NULL;
		}
		free(a);
		p = end + 1;
	} else if (half) {
		p += 3 + half;
	} else {
		const char *q = memmem(p, k, " b/", 3);
		const char *r = memmem(p, k, " \"b/", 4);

		if (!q || (r && r < q))
			q = r;
		if (!q)
			return NULL;
		p = q + 1;
	}
	if (p < lim && *p == '"') {
		b = unquote_c(p, lim, &end);
		if (b && end != lim) {
			free(b);
			b = NULL;
		}
	} else {
		b = xstrndup(p, (size_t)(lim - p));
	}
	if (!b || strncmp(b, "b/", 2)) {
		free(b);
		return NULL;
	}
	path = xstrdup(b + 2);
	free(b);
	return path;
}

int vpatch_parse(const char *buf, struct vpatch *p, char *err, size_t errlen)
{
	struct vpatch readded = {0};
	const char *l = buf;
	long old_left = 0, new_left = 0;
	int newline = 0;

	while (*l) {
		size_t n = strcspn(l, "\n");

		if (old_left > 0 || new_left > 0) {
			if (!n || *l == ' ') {
				old_left--;
				new_left--;
				newline++;
			} else if (*l == '+') {
				note_define(&readded, l + 1, n - 1);
				add_line(p, newline++);
				new_left--;
			} else if (*l == '-') {
				note_define(p, l + 1, n - 1);
				old_left--;
			} else if (*l != '\\') {
				old_left = new_left = 0; /* malformed hunk */
			}
		} else if (!strncmp(l, "diff --git ", 11)) {
			char *path = header_path(l, n);
			int safe;

			if (!path) {
				snprintf(err, errlen, "bad diff header: %.*s",
					 (int)n, l);
				subtract_defines(p, &readded);
				return -1;
			}
			safe = path_is_safe_relative(path);
			if (!safe)
				snprintf(err, errlen, "unsafe path '%s'", path);
			else
				add_path(p, path, strlen(path));
			free(path);
			if (!safe) {
				subtract_defines(p, &readded);
				return -1;
			}
		} else if (!strncmp(l, "@@ -", 4) && p->npaths) {
			long os = 0, oc = 1, ns = 0, nc = 1;
			const char *q = l + 4;
			char *end;

			os = strtol(q, &end, 10);
			if (*end == ',')
				oc = strtol(end + 1, &end, 10);
			if (strncmp(end, " +", 2) == 0) {
				ns = strtol(end + 2, &end, 10);
				if (*end == ',')
					nc = strtol(end + 1, &end, 10);
			}
			(void)os;
			old_left = oc;
			new_left = nc;
			newline = (int)ns;
		}
		l += n;
		if (*l)
			l++;
	}
	subtract_defines(p, &readded);
	if (!p->npaths) {
		snprintf(err, errlen, "no diff in the patch");
		return -1;
	}
	return 0;
}

int vpatch_touches_line(const struct vpatch *p, int k, int line)
{
	int i;

	for (i = 0; i < p->nadded[k]; i++)
		if (p->added[k][i] == line)
			return 1;
	return 0;
}

void vpatch_free(struct vpatch *p)
{
	int i;

	free(p->file);
	free(p->name);
	for (i = 0; i < p->npaths; i++) {
		free(p->paths[i]);
		free(p->added[i]);
	}
	free(p->paths);
	free(p->added);
	free(p->nadded);
	for (i = 0; i < p->nremoved; i++)
		free(p->removed_defines[i]);
	free(p->removed_defines);
	memset(p, 0, sizeof(*p));
}
