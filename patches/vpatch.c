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
		} else if (!strncmp(l, "diff --git a/", 13)) {
			const char *b = strstr(l, " b/");
			char *path;
			int safe;

			if (!b || b > l + n) {
				snprintf(err, errlen, "bad diff header: %.*s",
					 (int)n, l);
				subtract_defines(p, &readded);
				return -1;
			}
			path = xstrndup(b + 3, (size_t)(l + n - b - 3));
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
