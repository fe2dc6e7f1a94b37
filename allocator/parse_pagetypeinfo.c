// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/pagetypeinfo (mm/vmstat.c pagetypeinfo_show): the pageblock
 * order, free counts per zone, migratetype and order, "Number of blocks
 * type" and, with page_owner, "Number of mixed blocks".  The layout is the
 * same from 2.6.24 to 6.x; the type names and their order differ (2.6.24:
 * Unmovable Reclaimable Movable Reserve Isolate; 6.1: Unmovable Movable
 * Reclaimable HighAtomic [CMA] Isolate), so they are read, not assumed.
 * From 5.x each count stops at 100000 and prints ">100000".
 */
#include <stdio.h>
#include <string.h>

#include "allocator/procfs.h"
#include "allocator/textscan.h"

enum section { SEC_NONE, SEC_FREE, SEC_BLOCKS, SEC_MIXED };

struct pti_state {
	struct frag_info *fi;
	struct parse_error *err;
	int lineno;
	enum section sec;
	int nr_orders;
	int cols[FRAG_MAX_TYPES]; /* column -> type index, for blocks/mixed */
	int nr_cols;
};

static int fail(struct pti_state *st, const char *fmt, const char *arg)
{
	st->err->line = st->lineno;
	snprintf(st->err->msg, sizeof(st->err->msg), fmt, arg);
	return -1;
}

static int parse_count(struct scan *s, unsigned long *v, bool *capped)
{
	*capped = scan_lit(s, ">");
	if (!scan_ulong(s, v))
		return -1;
	if (s->p < s->end && *s->p != ' ' && *s->p != '\t')
		return -1;
	return 0;
}

/* "Node N, zone NAME" (the common prefix of every data line) */
static struct frag_zone *parse_node_zone(struct pti_state *st, struct scan *s)
{
	char name[FRAG_NAME];
	unsigned long node;
	struct frag_zone *z;

	if (!scan_lit(s, "Node") || !scan_ulong(s, &node) || node > 65535 ||
	    !scan_lit(s, ",") || !scan_lit(s, "zone") ||
	    !scan_word(s, name, sizeof(name))) {
		fail(st, "expected \"Node N, zone NAME ...\"%s", "");
		return NULL;
	}
	z = frag_zone_get(st->fi, (int)node, name);
	if (!z)
		fail(st, "too many zones%s", "");
	return z;
}

static int parse_free_line(struct pti_state *st, struct scan *s)
{
	char type[FRAG_NAME];
	struct frag_zone *z = parse_node_zone(st, s);
	int t, o = 0;

	if (!z)
		return -1;
	if (!scan_lit(s, ",") || !scan_lit(s, "type") ||
	    !scan_word(s, type, sizeof(type)))
		return fail(st, "expected \", type NAME\" after the zone%s",
			    "");
	t = frag_type_index(st->fi, type);
	if (t < 0)
		return fail(st, "too many migratetypes (%s)", type);
	if (z->type_seen[t])
		return fail(st, "migratetype %s listed twice for the zone",
			    type);
	while (!scan_at_end(s)) {
		bool capped;

		if (o == st->nr_orders)
			return fail(st,
				    "more counts than the header has orders%s",
				    "");
		if (parse_count(s, &z->free_mt[t][o], &capped) < 0)
			return fail(st, "free page count is not a number%s",
				    "");
		/* summed over up to FRAG_MAX_TYPES types: keep the sum in range
		 */
		if (z->free_mt[t][o] > (FRAG_MAX_PAGES >> o) / FRAG_MAX_TYPES)
			return fail(st,
				    "free page count too large for its order%s",
				    "");
		z->capped[t][o++] = capped;
	}
	if (o != st->nr_orders)
		return fail(st, "fewer counts than the header has orders%s",
			    "");
	z->type_seen[t] = true;
	z->have_pagetypeinfo = true;
	if (!z->nr_orders || !z->have_buddyinfo)
		z->nr_orders = o;
	return 0;
}

static int parse_block_line(struct pti_state *st, struct scan *s)
{
	struct frag_zone *z = parse_node_zone(st, s);
	unsigned long *dst;
	int c = 0;

	if (!z)
		return -1;
	dst = st->sec == SEC_BLOCKS ? z->blocks : z->mixed;
	while (!scan_at_end(s)) {
		unsigned long v;
		bool capped;

		if (c == st->nr_cols)
			return fail(
				st,
				"more block counts than the header has types%s",
				"");
		if (parse_count(s, &v, &capped) < 0 || capped)
			return fail(st, "block count is not a number%s", "");
		dst[st->cols[c++]] = v;
	}
	if (c != st->nr_cols)
		return fail(st,
			    "fewer block counts than the header has types%s",
			    "");
	if (st->sec == SEC_BLOCKS)
		z->have_blocks = true;
	else
		z->have_mixed = true;
	return 0;
}

static int parse_type_header(struct pti_state *st, struct scan *s)
{
	char type[FRAG_NAME];

	st->nr_cols = 0;
	while (scan_word(s, type, sizeof(type))) {
		int t = frag_type_index(st->fi, type);

		if (t < 0 || st->nr_cols == FRAG_MAX_TYPES)
			return fail(st, "too many migratetypes (%s)", type);
		st->cols[st->nr_cols++] = t;
	}
	if (!st->nr_cols)
		return fail(st, "header names no migratetypes%s", "");
	return 0;
}

static int parse_line(struct pti_state *st, struct scan *s)
{
	unsigned long v;

	if (scan_lit(s, "Page block order:")) {
		if (!scan_ulong(s, &v) || v >= FRAG_MAX_ORDERS + 8 ||
		    !scan_at_end(s))
			return fail(st, "bad pageblock order%s", "");
		st->fi->pb_order = (int)v;
		return 0;
	}
	if (scan_lit(s, "Pages per block:")) {
		if (!scan_ulong(s, &v) || !scan_at_end(s))
			return fail(st, "bad pages per block%s", "");
		st->fi->pages_per_block = v;
		return 0;
	}
	if (scan_lit(s, "Free pages count per migrate type at order")) {
		st->nr_orders = 0;
		while (!scan_at_end(s)) {
			if (!scan_ulong(s, &v) ||
			    v != (unsigned long)st->nr_orders ||
			    st->nr_orders == FRAG_MAX_ORDERS)
				return fail(st,
					    "bad order list in the header%s",
					    "");
			st->nr_orders++;
		}
		if (!st->nr_orders)
			return fail(st, "header lists no orders%s", "");
		st->sec = SEC_FREE;
		return 0;
	}
	if (scan_lit(s, "Number of blocks type")) {
		st->sec = SEC_BLOCKS;
		return parse_type_header(st, s);
	}
	if (scan_lit(s, "Number of mixed blocks")) {
		st->sec = SEC_MIXED;
		return parse_type_header(st, s);
	}
	if (s->end - s->p >= 4 && !memcmp(s->p, "Node", 4)) {
		if (st->sec == SEC_FREE)
			return parse_free_line(st, s);
		if (st->sec == SEC_BLOCKS || st->sec == SEC_MIXED)
			return parse_block_line(st, s);
		return fail(st, "zone line before any section header%s", "");
	}
	return fail(st, "unrecognised line%s", "");
}

int parse_pagetypeinfo(const char *buf, size_t len, struct frag_info *fi,
		       struct parse_error *err)
{
	struct pti_state st = {.fi = fi, .err = err};
	struct scan s;
	size_t pos = 0;
	bool any = false;

	while (next_line(buf, len, &pos, &s)) {
		st.lineno++;
		if (scan_at_end(&s))
			continue;
		if (parse_line(&st, &s) < 0)
			return -1;
		any = true;
	}
	if (!any || st.nr_orders == 0) {
		st.lineno = st.lineno ? st.lineno : 1;
		return fail(&st,
			    "no \"Free pages count per migrate type\" table "
			    "found%s",
			    "");
	}
	return 0;
}
