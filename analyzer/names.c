// SPDX-License-Identifier: GPL-2.0
/* A small identifier hash set, used for the tracked names and allocators. */
#include "analyzer/names.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void names_init(struct name_set *s)
{
	s->cap = 64;
	s->n = 0;
	s->keys = xcalloc(s->cap, sizeof(*s->keys));
	s->vals = xcalloc(s->cap, sizeof(*s->vals));
}

void names_free(struct name_set *s)
{
	size_t i;

	for (i = 0; i < s->cap; i++)
		free(s->keys[i]);
	free(s->keys);
	free(s->vals);
	memset(s, 0, sizeof(*s));
}

static size_t slot(const struct name_set *s, const char *name, size_t len)
{
	size_t i = (size_t)fnv1a64(name, len) & (s->cap - 1);

	while (s->keys[i] &&
	       (strncmp(s->keys[i], name, len) || s->keys[i][len]))
		i = (i + 1) & (s->cap - 1);
	return i;
}

static void grow(struct name_set *s)
{
	struct name_set bigger;
	size_t i;

	bigger.cap = s->cap * 2;
	bigger.n = 0;
	bigger.keys = xcalloc(bigger.cap, sizeof(*bigger.keys));
	bigger.vals = xcalloc(bigger.cap, sizeof(*bigger.vals));
	for (i = 0; i < s->cap; i++) {
		size_t j;

		if (!s->keys[i])
			continue;
		j = slot(&bigger, s->keys[i], strlen(s->keys[i]));
		bigger.keys[j] = s->keys[i];
		bigger.vals[j] = s->vals[i];
		bigger.n++;
	}
	free(s->keys);
	free(s->vals);
	*s = bigger;
}

void names_put(struct name_set *s, const char *name, size_t len, int val)
{
	size_t i;

	if ((s->n + 1) * 2 > s->cap)
		grow(s);
	i = slot(s, name, len);
	if (!s->keys[i]) {
		s->keys[i] = xstrndup(name, len);
		s->n++;
	}
	s->vals[i] = val;
}

int names_get(const struct name_set *s, const char *name, size_t len)
{
	size_t i;

	if (!s->cap || !s->n)
		return -1;
	i = slot(s, name, len);
	return s->keys[i] ? s->vals[i] : -1;
}

int names_any_in(const struct name_set *s, const char *buf, size_t len)
{
	size_t i = 0;

	while (i < len) {
		size_t start;

		if (!is_ident_start((unsigned char)buf[i])) {
			/* Skip numbers whole so "0x80000u" is no identifier. */
			if (buf[i] >= '0' && buf[i] <= '9')
				while (i < len && is_ident_char(
							  (unsigned char)buf[i]))
					i++;
			else
				i++;
			continue;
		}
		start = i;
		while (i < len && is_ident_char((unsigned char)buf[i]))
			i++;
		if (names_get(s, buf + start, i - start) >= 0)
			return 1;
	}
	return 0;
}
