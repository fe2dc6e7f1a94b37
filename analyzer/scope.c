// SPDX-License-Identifier: GPL-2.0
/*
 * Scoped scans (`scan --rule`): the text-only tests that pick the files a
 * scan for a few names must analyse, and the files outside that may
 * define the wrappers those files call.
 */
#include "analyzer/scope.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

/* Parenthesised words that are not calls of a function or macro. */
static const char *const not_callees[] = {
	"if",	       "while",	  "for",     "switch",
	"return",      "sizeof",  "typeof",  "__typeof__",
	"_Generic",    "defined", "alignof", "_Alignof",
	"__alignof__", "do",	  "case",    NULL,
};

void scope_init(struct scope *s, char **names, int n)
{
	int i;

	s->names = names;
	s->n = n;
	names_init(&s->set);
	names_init(&s->callees);
	for (i = 0; i < n; i++)
		names_put(&s->set, names[i], strlen(names[i]), 1);
}

void scope_free(struct scope *s)
{
	names_free(&s->set);
	names_free(&s->callees);
}

static const char *skip_comment_or_literal(const char *p, const char *end)
{
	if (p[0] == '/' && p + 1 < end && p[1] == '*') {
		p += 2;
		while (p + 1 < end && !(p[0] == '*' && p[1] == '/'))
			p++;
		return p + 2 < end ? p + 2 : end;
	}
	if (p[0] == '/' && p + 1 < end && p[1] == '/') {
		p = memchr(p, '\n', (size_t)(end - p));
		return p ? p : end;
	}
	if (*p == '"' || *p == '\'') {
		char q = *p++;

		while (p < end && *p != q && *p != '\n')
			p += (*p == '\\' && p + 1 < end) ? 2 : 1;
		return p < end ? p + 1 : end;
	}
	return NULL;
}

static int is_callee(const char *name, size_t len)
{
	int i;

	for (i = 0; not_callees[i]; i++)
		if (strlen(not_callees[i]) == len &&
		    !memcmp(not_callees[i], name, len))
			return 0;
	return 1;
}

/*
 * Every open call around a scope name takes it as an argument: a stack
 * of the open parentheses, each with the word before it, cut at the end
 * of a statement.
 */
static void collect_callees(struct scope *s, const char *buf, size_t len)
{
	struct {
		const char *name;
		size_t len;
	} open[64];
	const char *p = buf, *end = buf + len, *word = NULL, *q;
	size_t wlen = 0;
	int depth = 0, deeper = 0, i;

	while (p < end) {
		if ((q = skip_comment_or_literal(p, end))) {
			p = q;
			word = NULL;
			continue;
		}
		if (is_ident_start((unsigned char)*p)) {
			for (q = p; q < end && is_ident_char((unsigned char)*q);
			     q++)
				;
			if (names_get(&s->set, p, (size_t)(q - p)) >= 0)
				for (i = 0; i < depth; i++)
					if (open[i].name)
						names_put(&s->callees,
							  open[i].name,
							  open[i].len, 1);
			word = p;
			wlen = (size_t)(q - p);
			p = q;
			continue;
		}
		if (*p == '(') {
			if (depth < (int)(sizeof(open) / sizeof(open[0]))) {
				int call = word && is_callee(word, wlen);

				open[depth].name = call ? word : NULL;
				open[depth].len = call ? wlen : 0;
				depth++;
			} else {
				deeper++; /* not kept, but still closed */
			}
		} else if (*p == ')') {
			if (deeper)
				deeper--;
			else if (depth)
				depth--;
		} else if (*p == ';' || *p == '{' || *p == '}') {
			depth = deeper = 0;
		}
		if (*p != ' ' && *p != '\t' && *p != '\n')
			word = NULL;
		p++;
	}
}

int scope_match(struct scope *s, const char *buf, size_t len)
{
	int i, hit = 0;

	/* memmem first: most of a tree's ~1 GB names none of them. */
	for (i = 0; i < s->n && !hit; i++)
		hit = memmem(buf, len, s->names[i], strlen(s->names[i])) !=
		      NULL;
	if (!hit || !names_any_in(&s->set, buf, len))
		return 0;
	collect_callees(s, buf, len);
	return 1;
}

int scope_defines_callee(const struct scope *s, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len, *eol;

	if (!s->callees.n)
		return 0;
	for (; p < end; p = eol + 1) {
		eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		if (p == eol || *p == ' ' || *p == '\t')
			continue;
		if (names_any_in(&s->callees, p, (size_t)(eol - p)))
			return 1;
	}
	return 0;
}
