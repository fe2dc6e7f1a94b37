// SPDX-License-Identifier: GPL-2.0
/*
 * Applying token and line edits to a buffer.  Pure: no I/O, so the unit
 * tests and the fuzz target drive it directly.
 */
#include "patches/edit.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

struct lines {
	size_t *start; /* start[i]: offset of line i+1; start[n] = len */
	int n;
};

static void split_lines(const char *buf, size_t len, struct lines *l)
{
	size_t i, alloc = 64;

	l->start = xmalloc(alloc * sizeof(size_t));
	l->n = 0;
	l->start[0] = 0;
	for (i = 0; i < len; i++) {
		if (buf[i] != '\n')
			continue;
		if ((size_t)l->n + 2 >= alloc) {
			alloc *= 2;
			l->start = xrealloc(l->start, alloc * sizeof(size_t));
		}
		l->start[++l->n] = i + 1;
	}
	if (l->start[l->n] < len) {
		/* A last line without a newline. */
		if ((size_t)l->n + 2 >= alloc)
			l->start = xrealloc(l->start,
					    (alloc + 2) * sizeof(size_t));
		l->start[++l->n] = len;
	}
}

/* Does line i (0-based) end with a backslash continuation? */
static int continued(const char *buf, const struct lines *l, int i)
{
	size_t e = l->start[i + 1];

	while (e > l->start[i] && (buf[e - 1] == '\n' || buf[e - 1] == '\r'))
		e--;
	return e > l->start[i] && buf[e - 1] == '\\';
}

static int line_has_word(const char *buf, const struct lines *l, int i,
			 const char *w)
{
	size_t s = l->start[i], e = l->start[i + 1], n = strlen(w), k;

	for (k = s; k + n <= e; k++)
		if (!memcmp(buf + k, w, n) &&
		    (k == s || !is_ident(buf[k - 1])) &&
		    (k + n == e || !is_ident(buf[k + n])))
			return 1;
	return 0;
}

/*
 * A flag-name table entry: the line holds nothing but `{...},` or
 * `gfpflag_string(...),` (and a macro continuation).  A string mention
 * anywhere else keeps its line and has just the token replaced.
 */
static int is_table_line(const char *buf, const struct lines *l, int i)
{
	size_t s = l->start[i], e = l->start[i + 1];

	while (s < e && (buf[s] == ' ' || buf[s] == '\t'))
		s++;
	while (e > s && strchr(" \t\r\n\\", buf[e - 1]))
		e--;
	if (e > s && buf[e - 1] == ',')
		e--;
	if (e - s > 2 && buf[s] == '{' && buf[e - 1] == '}')
		return !memchr(buf + s + 1, '{', e - s - 2);
	return e - s > 16 && !memcmp(buf + s, "gfpflag_string(", 15) &&
	       buf[e - 1] == ')';
}

static int mark_deletions(const char *buf, const struct lines *l,
			  struct edit *e, int n, char *del, char *err,
			  size_t errlen)
{
	int i;

	for (i = 0; i < n; i++) {
		int li = e[i].line - 1;

		if (e[i].kind != EDIT_DEL_DEFINE && e[i].kind != EDIT_DEL_LINE)
			continue;
		if (e[i].kind == EDIT_DEL_LINE && li >= 0 && li < l->n &&
		    !is_table_line(buf, l, li)) {
			e[i].kind = EDIT_TOKEN;
			continue;
		}
		if (li < 0 || li >= l->n)
			return fail(err, errlen,
				    "%d: no such line (the file "
				    "has %d)",
				    e[i].line, l->n);
		if (!line_has_word(buf, l, li, e[i].from))
			return fail(err, errlen,
				    "%d: expected %s on this "
				    "line (is the database stale?)",
				    e[i].line, e[i].from);
		del[li] = 1;
		if (e[i].kind != EDIT_DEL_DEFINE)
			continue;
		if (!line_has_word(buf, l, li, "define"))
			return fail(err, errlen,
				    "%d: expected the #define "
				    "of %s",
				    e[i].line, e[i].from);
		while (li + 1 < l->n && continued(buf, l, li))
			del[++li] = 1;
	}
	return 0;
}

static int cmp_edit(const void *a, const void *b)
{
	const struct edit *x = a, *y = b;

	if (x->line != y->line)
		return x->line - y->line;
	return x->col - y->col;
}

/*
 * The bytes to remove when dropping the token [s, e) from an `a | b`
 * expression: the token and one `|` with the blanks on one side.
 */
static void drop_span(const char *buf, size_t ls, size_t le, size_t *s,
		      size_t *e)
{
	size_t a = *s, b = *e;

	while (a > ls && (buf[a - 1] == ' ' || buf[a - 1] == '\t'))
		a--;
	if (a > ls && buf[a - 1] == '|') {
		a--;
		while (a > ls && (buf[a - 1] == ' ' || buf[a - 1] == '\t'))
			a--;
		*s = a;
		return;
	}
	while (b < le && (buf[b] == ' ' || buf[b] == '\t'))
		b++;
	if (b < le && buf[b] == '|') {
		b++;
		while (b < le && (buf[b] == ' ' || buf[b] == '\t'))
			b++;
		*e = b;
	}
}

/*
 * The edit e replaced buf[s, t) by what out holds from mark on: keep that
 * when it is the planned change, else put the original bytes back.
 */
static void keep_or_refuse(const char *buf, size_t len, size_t s, size_t t,
			   struct strbuf *out, size_t mark, struct edit *e,
			   const char *why, struct strbuf *refused)
{
	char buf_why[256];

	if (!why) {
		if (!edit_check(buf, len, s, t, out->buf ? out->buf + mark : "",
				out->len - mark, e, buf_why, sizeof(buf_why)))
			return;
		why = buf_why;
	}
	out->len = mark;
	if (out->buf)
		out->buf[mark] = '\0';
	sb_add(out, buf + s, t - s);
	e->refused = 1;
	if (refused)
		sb_addf(refused, "%d:%d: hunk refused: %s\n", e->line, e->col,
			why);
}

int edits_apply(const char *buf, size_t len, struct edit *edits, int n,
		struct strbuf *out, struct strbuf *refused, char *err,
		size_t errlen)
{
	struct lines l;
	char *del;
	size_t pos = 0; /* everything before pos is written */
	int i, li, rc = 0;

	split_lines(buf, len, &l);
	del = xcalloc((size_t)l.n + 1, 1);
	if (n > 1)
		qsort(edits, (size_t)n, sizeof(*edits), cmp_edit);
	rc = mark_deletions(buf, &l, edits, n, del, err, errlen);
	for (li = 0, i = 0; li < l.n && !rc; li++) {
		size_t ls = l.start[li], le = l.start[li + 1];

		if (del[li]) {
			/* An argument edit may not run into a deleted line. */
			if (pos > ls) {
				rc = fail(err, errlen, "%d: edits overlap",
					  li + 1);
				break;
			}
			sb_add(out, buf + pos, ls - pos);
			pos = le;
			while (i < n && edits[i].line <= li + 1)
				i++;
			continue;
		}
		for (; i < n && edits[i].line <= li + 1; i++) {
			struct edit *e = &edits[i];
			size_t s, t, fl, mark;
			int is_arg = e->kind == EDIT_ARG_ADD ||
				     e->kind == EDIT_ARG_PARAM;

			if ((e->kind != EDIT_TOKEN && !is_arg) ||
			    e->line < li + 1)
				continue;
			fl = strlen(e->from);
			s = ls + (size_t)(e->col > 0 ? e->col - 1 : 0);
			t = s + fl;
			if (!is_arg && (e->col < 1 || t > le ||
					memcmp(buf + s, e->from, fl) ||
					(s > ls && is_ident(buf[s - 1])) ||
					(t < le && is_ident(buf[t])))) {
				rc = fail(err, errlen,
					  "%d:%d: expected %s "
					  "(is the database stale?)",
					  e->line, e->col, e->from);
				break;
			}
			if (s < pos) {
				if (i && !cmp_edit(e, e - 1))
					continue; /* the same edit twice */
				rc = fail(err, errlen, "%d:%d: edits overlap",
					  e->line, e->col);
				break;
			}
			if (is_arg) {
				if (e->col < 1 || s >= le) {
					rc = fail(err, errlen,
						  "%d:%d: no such column",
						  e->line, e->col);
					break;
				}
				sb_add(out, buf + pos, s - pos);
				mark = out->len;
				rc = edit_arg_apply(buf, len, s, e, out, &pos,
						    err, errlen);
				if (rc < 0)
					break;
				keep_or_refuse(buf, len, s, pos, out, mark, e,
					       rc ? err : NULL, refused);
				rc = 0;
				continue;
			}
			if (!e->to)
				drop_span(buf, pos > ls ? pos : ls, le, &s, &t);
			sb_add(out, buf + pos, s - pos);
			mark = out->len;
			if (e->to)
				sb_adds(out, e->to);
			else if (s == ls + (size_t)(e->col - 1) && t == s + fl)
				sb_adds(out, "0"); /* it was the whole mask */
			pos = t;
			keep_or_refuse(buf, len, s, t, out, mark, e, NULL,
				       refused);
		}
	}
	if (!rc)
		sb_add(out, buf + pos, len - pos);
	for (; i < n && !rc; i++)
		if (edits[i].kind != EDIT_DEL_DEFINE &&
		    edits[i].kind != EDIT_DEL_LINE && edits[i].line > l.n)
			rc = fail(err, errlen,
				  "%d:%d: no such line (the "
				  "file has %d)",
				  edits[i].line, edits[i].col, l.n);
	free(del);
	free(l.start);
	return rc;
}
