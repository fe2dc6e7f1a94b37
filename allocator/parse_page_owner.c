// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/page_owner (mm/page_owner.c print_page_owner): each
 * record starts "Page allocated via order O, mask 0xM(FLAGS)[, pid ...]"
 * followed by "PFN P type T Block B type BT Flags ..." and a stack trace of
 * indented lines.  A pageblock is mixed when one of its pages has a type
 * other than the block's, as pagetypeinfo_showmixedcount_print() counts.
 * Pure function over a buffer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allocator/procfs.h"
#include "allocator/textscan.h"

#define fail parse_fail

static int type_index(struct page_owner_stats *st, const char *name)
{
	return name_index(st->types, &st->nr_types, name);
}

struct mixed_set {
	unsigned long *blocks; /* block << 3 | block type index */
	size_t n, alloc;
};

static void set_add(struct mixed_set *set, unsigned long v)
{
	if (set->n && set->blocks[set->n - 1] == v)
		return; /* dumps are in pfn order: the common duplicate */
	if (set->n == set->alloc) {
		size_t na = set->alloc ? set->alloc * 2 : 256;
		unsigned long *nb = realloc(set->blocks, na * sizeof(*nb));

		if (!nb)
			abort();
		set->blocks = nb;
		set->alloc = na;
	}
	set->blocks[set->n++] = v;
}

static int cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a,
		      y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

static int parse_pfn_line(struct scan *s, struct page_owner_stats *st,
			  struct mixed_set *set)
{
	char type[FRAG_NAME], btype[FRAG_NAME];
	unsigned long pfn, block;
	int t, bt;

	if (!scan_ulong(s, &pfn) || !scan_lit(s, "type") ||
	    !scan_word(s, type, sizeof(type)) || !scan_lit(s, "Block") ||
	    !scan_ulong(s, &block) || !scan_lit(s, "type") ||
	    !scan_word(s, btype, sizeof(btype)))
		return -1;
	t = type_index(st, type);
	bt = type_index(st, btype);
	if (t < 0 || bt < 0)
		return -1;
	st->records++;
	if (t != bt && block <= (~0UL >> 3))
		set_add(set, block << 3 | (unsigned long)bt);
	return 0;
}

int parse_page_owner(const char *buf, size_t len, struct page_owner_stats *st,
		     struct parse_error *err)
{
	struct mixed_set set = {0};
	bool want_pfn = false;
	struct scan s;
	size_t pos = 0, i;
	int lineno = 0;

	memset(st, 0, sizeof(*st));
	while (next_line(buf, len, &pos, &s)) {
		lineno++;
		if (s.p == s.end || *s.p == ' ' || *s.p == '\t')
			continue; /* blank separator or stack frame */
		if (scan_lit(&s, "Page allocated via order")) {
			unsigned long order, mask;

			if (!scan_ulong(&s, &order) || !scan_lit(&s, ",") ||
			    !scan_lit(&s, "mask") || !scan_hex(&s, &mask) ||
			    order > 64) {
				free(set.blocks);
				return fail(err, lineno,
					    "malformed \"Page allocated via "
					    "order N, mask 0x...\"");
			}
			want_pfn = true;
			continue;
		}
		if (scan_lit(&s, "PFN")) {
			if (!want_pfn) {
				free(set.blocks);
				return fail(err, lineno,
					    "PFN line outside a \"Page "
					    "allocated via\" record");
			}
			if (parse_pfn_line(&s, st, &set) < 0) {
				free(set.blocks);
				return fail(err, lineno,
					    "malformed \"PFN N type T Block B "
					    "type T\" line");
			}
			want_pfn = false;
			continue;
		}
		/* "Page has been migrated, ...", "Charged to memcg ...": info
		 */
	}
	if (!st->records) {
		free(set.blocks);
		return fail(err, lineno ? lineno : 1,
			    "no page_owner records found");
	}
	if (set.n)
		qsort(set.blocks, set.n, sizeof(*set.blocks), cmp_ulong);
	for (i = 0; i < set.n; i++) {
		if (i && set.blocks[i] == set.blocks[i - 1])
			continue;
		/* one block counts once, under the type it had */
		if (i && set.blocks[i] >> 3 == set.blocks[i - 1] >> 3)
			continue;
		st->mixed_blocks++;
		st->mixed_by_type[set.blocks[i] & 7]++;
	}
	free(set.blocks);
	return 0;
}
