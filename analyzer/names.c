// SPDX-License-Identifier: GPL-2.0
/* A small identifier hash set, used for the tracked names and allocators. */
#include "analyzer/names.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A cheap hash of a name: its length and three of its bytes. */
static inline unsigned names_quick(const char *name, size_t len)
{
	unsigned a = (unsigned char)name[0];
	unsigned b = (unsigned char)name[len > 1];
	unsigned z = (unsigned char)name[len - 1];

	return (a * 7 + b * 131 + z * 1031 + (unsigned)len * 37) &
	       (NAMES_QUICK_BITS - 1);
}

static inline int quick_maybe(const struct name_set *s, const char *name,
			      size_t len)
{
	unsigned q;

	if (!len)
		return 1;
	q = names_quick(name, len);
	return (s->quick[q / 64] >> (q % 64)) & 1;
}

void names_init(struct name_set *s)
{
	memset(s->quick, 0, sizeof(s->quick));
	s->cap = 64;
	s->n = 0;
	s->keys = xcalloc(s->cap, sizeof(*s->keys));
	s->vals = xcalloc(s->cap, sizeof(*s->vals));
	s->hash = xcalloc(s->cap, sizeof(*s->hash));
}

void names_free(struct name_set *s)
{
	size_t i;

	for (i = 0; i < s->cap; i++)
		free(s->keys[i]);
	free(s->keys);
	free(s->vals);
	free(s->hash);
	memset(s, 0, sizeof(*s));
}

/*
 * The hash of an identifier, for the set's slots and the identifier sets:
 * eight bytes a step (FNV-1a's byte loop over every identifier of the
 * tree was the scan's busiest function of its own).
 */
static uint64_t ident_hash(const char *name, size_t len)
{
	return hash64(name, len);
}

/* The slot of NAME (hash H): where it is, or the empty one it would take. */
static size_t slot(const struct name_set *s, const char *name, size_t len,
		   uint64_t h)
{
	size_t i = (size_t)h & (s->cap - 1);

	while (s->keys[i] &&
	       (s->hash[i] != (uint32_t)h || strncmp(s->keys[i], name, len) ||
		s->keys[i][len]))
		i = (i + 1) & (s->cap - 1);
	return i;
}

/* A table of CAP slots; the keys move with their stored hashes. */
static void grow_to(struct name_set *s, size_t cap)
{
	size_t i, j;
	char **keys = xcalloc(cap, sizeof(*keys));
	int *vals = xcalloc(cap, sizeof(*vals));
	uint32_t *hash = xcalloc(cap, sizeof(*hash));

	for (i = 0; i < s->cap; i++) {
		if (!s->keys[i])
			continue;
		/*
		 * The slot's low bits come from the stored low 32 bits:
		 * a set of more than 2^32 slots is not one of ours.
		 */
		for (j = s->hash[i] & (cap - 1); keys[j]; j = (j + 1) & (cap - 1))
			;
		keys[j] = s->keys[i];
		vals[j] = s->vals[i];
		hash[j] = s->hash[i];
	}
	free(s->keys);
	free(s->vals);
	free(s->hash);
	s->keys = keys;
	s->vals = vals;
	s->hash = hash;
	s->cap = cap;
}

static void grow(struct name_set *s)
{
	grow_to(s, s->cap * 2);
}

void names_reserve(struct name_set *s, size_t n)
{
	size_t cap = s->cap;

	while (n * 2 > cap)
		cap *= 2;
	if (cap != s->cap)
		grow_to(s, cap);
}

void names_put(struct name_set *s, const char *name, size_t len, int val)
{
	uint64_t h = ident_hash(name, len);
	size_t i;

	if ((s->n + 1) * 2 > s->cap)
		grow(s);
	i = slot(s, name, len, h);
	if (!s->keys[i]) {
		s->keys[i] = xstrndup(name, len);
		s->hash[i] = (uint32_t)h;
		s->n++;
		if (len) {
			unsigned q = names_quick(name, len);

			s->quick[q / 64] |= 1ULL << (q % 64);
		}
	}
	s->vals[i] = val;
}

uint64_t names_hash(const char *name, size_t len)
{
	return ident_hash(name, len);
}

int names_get_hashed(const struct name_set *s, const char *name, size_t len,
		     uint64_t h)
{
	size_t i;

	if (!s->cap || !s->n || !quick_maybe(s, name, len))
		return -1;
	i = slot(s, name, len, h);
	return s->keys[i] ? s->vals[i] : -1;
}

int names_get(const struct name_set *s, const char *name, size_t len)
{
	/* the quick reject before hashing the whole name */
	if (!s->cap || !s->n || !quick_maybe(s, name, len))
		return -1;
	return names_get_hashed(s, name, len, ident_hash(name, len));
}

/* 1 for the bytes of an identifier, 2 for those that may start one. */
static const unsigned char ident_class[256] = {
	['0' ... '9'] = 1,
	['A' ... 'Z'] = 3,
	['a' ... 'z'] = 3,
	['_'] = 3,
};

/*
 * The next identifier at or after *I: its start, with *I left at its end;
 * LEN when there is none.  Numbers are skipped whole, so "0x80000u" is no
 * identifier.
 */
static inline size_t next_ident(const unsigned char *p, size_t len,
				size_t *i)
{
	while (*i < len) {
		unsigned c = ident_class[p[*i]];
		size_t start;

		if (!(c & 2)) {
			if (c)
				while (*i < len && ident_class[p[*i]])
					++*i;
			else
				++*i;
			continue;
		}
		start = *i;
		while (*i < len && ident_class[p[*i]])
			++*i;
		return start;
	}
	return len;
}

int names_each_at(const struct name_set *s, const char *buf, size_t len,
		  int (*fn)(int val, size_t start, size_t end, void *arg),
		  void *arg)
{
	const unsigned char *p = (const unsigned char *)buf;
	size_t i = 0, start;
	int v, rc;

	while ((start = next_ident(p, len, &i)) < len)
		if ((v = names_get(s, buf + start, i - start)) >= 0 &&
		    (rc = fn(v, start, i, arg)))
			return rc;
	return 0;
}

static int found(int val, size_t start, size_t end, void *arg)
{
	(void)val;
	(void)start;
	(void)end;
	(void)arg;
	return 1;
}

int names_any_in(const struct name_set *s, const char *buf, size_t len)
{
	return names_each_at(s, buf, len, found, NULL);
}

static uint32_t sig_fold(uint64_t h)
{
	return (uint32_t)(h ^ (h >> 32));
}

uint32_t name_sig_hash(const char *name, size_t len)
{
	return sig_fold(ident_hash(name, len));
}

/*
 * Sort (LSD radix, a byte a pass: a file has a few thousand names, and
 * qsort() of them was three quarters of building the set) and drop
 * repeats.
 */
void name_sig_sort(uint32_t *h, size_t *n)
{
	uint32_t *tmp, *src = h, *dst, *t;
	size_t i, k = 0, count[256];
	int shift;

	if (*n < 2)
		return;
	tmp = xmalloc(*n * sizeof(*tmp));
	dst = tmp;
	for (shift = 0; shift < 32; shift += 8) {
		size_t sum = 0;

		memset(count, 0, sizeof(count));
		for (i = 0; i < *n; i++)
			count[(src[i] >> shift) & 0xff]++;
		for (i = 0; i < 256; i++) {
			size_t c = count[i];

			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < *n; i++)
			dst[count[(src[i] >> shift) & 0xff]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	/* Four passes: the sorted keys are back in h. */
	free(tmp);
	for (i = 1; i < *n; i++)
		if (h[i] != h[k])
			h[++k] = h[i];
	*n = k + 1;
}

/*
 * A file's names, each once: an open-addressed set of their hashes
 * while reading, so that only the distinct ones (a quarter of a
 * file's identifiers) are sorted.  0 is the empty slot; a name that
 * hashes to 0 is remembered aside.
 */
struct sig_set {
	uint32_t *v;
	size_t cap, n;
	int zero;
};

static void sig_add(struct sig_set *t, uint32_t h);

static void sig_grow(struct sig_set *t)
{
	struct sig_set b = {xcalloc(t->cap * 2, sizeof(*t->v)), t->cap * 2,
			    0, t->zero};
	size_t i;

	for (i = 0; i < t->cap; i++)
		if (t->v[i])
			sig_add(&b, t->v[i]);
	free(t->v);
	*t = b;
}

static void sig_add(struct sig_set *t, uint32_t h)
{
	size_t i;

	if (!h) {
		t->zero = 1;
		return;
	}
	if (2 * (t->n + 1) > t->cap)
		sig_grow(t);
	for (i = h & (t->cap - 1); t->v[i]; i = (i + 1) & (t->cap - 1))
		if (t->v[i] == h)
			return;
	t->v[i] = h;
	t->n++;
}

int name_sig_build_any(struct name_sig *g, const char *buf, size_t len,
		       const struct name_set *filter)
{
	const unsigned char *p = (const unsigned char *)buf;
	struct sig_set t = {NULL, 256, 0, 0};
	size_t i = 0, start, n;
	int any = 0;

	/* about a distinct name each 50 bytes: grown seldom, if ever */
	while (t.cap < len / 24 && t.cap < ((size_t)1 << 20))
		t.cap *= 2;
	t.v = xcalloc(t.cap, sizeof(*t.v));
	if (filter && (!filter->cap || !filter->n))
		filter = NULL;
	while ((start = next_ident(p, len, &i)) < len) {
		uint64_t h = ident_hash(buf + start, i - start);

		sig_add(&t, sig_fold(h));
		if (!any && filter &&
		    names_get_hashed(filter, buf + start, i - start, h) >= 0)
			any = 1;
	}
	n = t.n + t.zero;
	/* names nothing: still a set, an empty one */
	g->h = xmalloc((n ? n : 1) * sizeof(*g->h));
	g->n = 0;
	if (t.zero)
		g->h[g->n++] = 0;
	for (i = 0; i < t.cap; i++)
		if (t.v[i])
			g->h[g->n++] = t.v[i];
	free(t.v);
	name_sig_sort(g->h, &g->n);
	return any;
}

void name_sig_build(struct name_sig *g, const char *buf, size_t len)
{
	name_sig_build_any(g, buf, len, NULL);
}

int name_sig_meets(const struct name_sig *g, const uint32_t *sorted,
		   size_t n)
{
	size_t i = 0, k = 0;

	if (!g->h)
		return 1;
	while (i < g->n && k < n) {
		if (g->h[i] == sorted[k])
			return 1;
		if (g->h[i] < sorted[k])
			i++;
		else
			k++;
	}
	return 0;
}

void name_sig_free(struct name_sig *g)
{
	free(g->h);
	g->h = NULL;
	g->n = 0;
}

int is_jump_keyword(const char *p, size_t n)
{
	static const char *const jumps[] = {"return", "goto", "break",
					    "continue"};
	size_t i;

	for (i = 0; i < sizeof(jumps) / sizeof(*jumps); i++)
		if (mem_is(p, n, jumps[i]))
			return 1;
	return 0;
}
