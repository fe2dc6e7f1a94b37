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
	/*
	 * Each key's hash (low 32 bits): a probe compares it before the
	 * key, and growing rehashes nothing (the whole-tree summaries
	 * spent a quarter of their time in probes' strncmp and strlen).
	 */
	uint32_t *hash;
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
/* Room for N names in all, made at once (a set that grows rehashes). */
void names_reserve(struct name_set *s, size_t n);
/* Value of NAME, or -1 when absent. */
int names_get(const struct name_set *s, const char *name, size_t len);
/*
 * The same with NAME's names_hash() computed once by the caller, for a
 * name looked up in several sets.
 */
uint64_t names_hash(const char *name, size_t len);
int names_get_hashed(const struct name_set *s, const char *name, size_t len,
		     uint64_t h);

/*
 * Prefilter: 1 when BUF contains a whole identifier that is in S
 * (comments and strings included: it over-approximates, never misses).
 */
int names_any_in(const struct name_set *s, const char *buf, size_t len);
/*
 * FN(value, START, END, ARG) for each whole identifier of BUF that is in
 * S ([START, END) in BUF), in order, until it returns nonzero: that
 * value, else 0.
 */
int names_each_at(const struct name_set *s, const char *buf, size_t len,
		  int (*fn)(int val, size_t start, size_t end, void *arg),
		  void *arg);

/*
 * A file's identifiers as a sorted set of 32-bit hashes, built while the
 * scan holds its text, so that the learned-allocator passes find the
 * files that name their new names without reading every file of the tree
 * again (four passes read 6.1's 55k files in 13 s of its 18).  A
 * collision only costs a read: the file's text is checked again.  A file
 * with no set (h NULL: it was not read) may name anything.  A whole 6.1
 * scan peaks at 255 MB RSS with them.
 */
struct name_sig {
	uint32_t *h;
	size_t n;
};

void name_sig_build(struct name_sig *g, const char *buf, size_t len);
/*
 * name_sig_build(), and from the same walk names_any_in(FILTER, ...):
 * a file's names are hashed once for both.
 */
int name_sig_build_any(struct name_sig *g, const char *buf, size_t len,
		       const struct name_set *filter);
uint32_t name_sig_hash(const char *name, size_t len);
/*
 * 0 when the file surely names none of the N names whose hashes SORTED
 * holds (ascending, as name_sig_sort leaves them).
 */
int name_sig_meets(const struct name_sig *g, const uint32_t *sorted,
		   size_t n);
void name_sig_sort(uint32_t *h, size_t *n);
void name_sig_free(struct name_sig *g);

static inline int is_ident_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static inline int is_ident_char(int c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

/* Is P[0..N) a jump keyword: return, goto, break or continue? */
int is_jump_keyword(const char *p, size_t n);

#endif
