/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_NAMES_H
#define GFPAUDIT_NAMES_H

#include <stddef.h>
#include <stdint.h>

/*
 * A set of identifiers with an integer value each (open addressing,
 * FNV-1a).  Lookups take (pointer, length) so that tokens are matched in
 * place in the file buffer without copying them.
 */
#define NAMES_QUICK_BITS 8192

struct name_set {
	char **keys;
	int *vals;
	size_t cap, n;
	/*
	 * One bit per names_quick() value of the keys: most identifiers
	 * of a file are not in the set, and this rejects ~90% of them
	 * without hashing the whole name or probing the table.
	 */
	uint64_t quick[NAMES_QUICK_BITS / 64];
};

void names_init(struct name_set *s);
void names_free(struct name_set *s);
/* Insert or overwrite NAME -> VAL. */
void names_put(struct name_set *s, const char *name, size_t len, int val);
/* Value of NAME, or -1 when absent. */
int names_get(const struct name_set *s, const char *name, size_t len);

/*
 * Prefilter: 1 when BUF contains a whole identifier that is in S
 * (comments and strings included: it over-approximates, never misses).
 */
int names_any_in(const struct name_set *s, const char *buf, size_t len);

static inline int is_ident_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static inline int is_ident_char(int c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

#endif
