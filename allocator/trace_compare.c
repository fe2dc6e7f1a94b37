// SPDX-License-Identifier: GPL-2.0
/*
 * The model against a real kernel's pagetypeinfo: start where the kernel
 * was, replay what it was asked, end where it ended?
 *
 * A snapshot gives per migratetype the pageblocks and the free blocks of
 * each order, not where they are.  The model's zone is laid out to match
 * it: pageblocks typed in runs (unmovable, reclaimable, highatomic, then
 * movable, as early boot leaves low memory unmovable), every page
 * allocated, then free chunks of each (type, order) carved from the top
 * of the blocks of their type, each with its buddy kept allocated so that
 * the chunk stays at its order.  The pages that stay allocated are the
 * kernel's allocations from before the trace ("pre" pages).
 *
 * The trace's allocations are served by the model's own policy; a traced
 * free frees what the model gave that allocation.  A free of a page
 * allocated before the trace frees the pre pages at the same offset in
 * the zone when they are pre pages, else the nearest pre pages in blocks
 * of the same type: the snapshot cannot say which page it was.
 */
#include "allocator/trace_compare.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

#define PRE_HANDLE 0xfffffffeU
/* map[]: the traced page was freed in the trace */
#define FREED UINT32_MAX

static int model_type(const char *name)
{
	static const struct {
		const char *name;
		int mt;
	} t[] = {
		{ "Unmovable", MIGRATE_UNMOVABLE },
		{ "Movable", MIGRATE_MOVABLE },
		{ "Reclaimable", MIGRATE_RECLAIMABLE },
		{ "HighAtomic", MIGRATE_HIGHATOMIC },
		{ "Isolate", MIGRATE_ISOLATE },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(t[i].name, name))
			return t[i].mt;
	return -1; /* CMA and others: not modelled */
}

int zone_snapshot_get(const struct frag_info *fi, const char *zone,
		      struct zone_snapshot *s, char *err, size_t errlen)
{
	const struct frag_zone *z = NULL;
	unsigned long before = 0;
	int i, t, o;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < fi->nr_zones && !z; i++) {
		const struct frag_zone *c = &fi->zones[i];

		if (!strcmp(c->name, zone)) {
			z = c;
			break;
		}
		if (c->node == 0 && c->have_blocks)
			for (t = 0; t < fi->nr_types; t++)
				before += c->blocks[t];
	}
	if (!z) {
		snprintf(err, errlen, "no zone %s in the pagetypeinfo", zone);
		return -1;
	}
	if (!z->have_blocks || !z->have_pagetypeinfo) {
		snprintf(err, errlen, "zone %s: the pagetypeinfo has no free "
			 "lists or no block counts", zone);
		return -1;
	}
	if (fi->pages_per_block && fi->pages_per_block != pageblock_nr_pages) {
		snprintf(err, errlen, "pageblocks of %lu pages; the model has "
			 "%u", fi->pages_per_block, pageblock_nr_pages);
		return -1;
	}
	if (z->nr_orders > MAX_ORDER) {
		snprintf(err, errlen, "%d orders; the model has %d",
			 z->nr_orders, MAX_ORDER);
		return -1;
	}
	s->start_pfn = before * pageblock_nr_pages;
	for (t = 0; t < fi->nr_types; t++) {
		int mt = model_type(fi->types[t]);

		if (mt < 0)
			continue;
		s->blocks[mt] = z->blocks[t];
		s->nr_blocks += z->blocks[t];
		for (o = 0; o < z->nr_orders; o++)
			s->free[mt][o] = z->free_mt[t][o];
	}
	if (!s->nr_blocks) {
		snprintf(err, errlen, "zone %s has no pageblocks", zone);
		return -1;
	}
	return 0;
}

/* The order types are laid out in, low pfns first. */
static const int layout[] = { MIGRATE_UNMOVABLE, MIGRATE_RECLAIMABLE,
			      MIGRATE_HIGHATOMIC, MIGRATE_ISOLATE,
			      MIGRATE_MOVABLE };

enum { ST_PRE, ST_KEEP, ST_FREE };

static int chunk_fits(const struct zone *z, const uint8_t *st, uint32_t p,
		      uint32_t size, int mt)
{
	uint32_t i, b;

	for (b = p; b < p + size; b += pageblock_nr_pages)
		if (get_pageblock_migratetype(z, b) != mt)
			return 0;
	for (i = p; i < p + size; i++)
		if (st[i] != ST_PRE)
			return 0;
	return 1;
}

/* Carve the snapshot's free chunks of type MT; returns pages not placed. */
static unsigned long carve(struct zone *z, uint8_t *st, uint32_t usable,
			   const struct zone_snapshot *s, int mt)
{
	unsigned long unplaced = 0;
	int o;

	for (o = MAX_ORDER - 1; o >= 0; o--) {
		uint32_t size = 1U << o, p, i;
		unsigned long need = s->free[mt][o];

		if (!need)
			continue;
		for (p = (usable - size) & ~(size - 1);; p -= size) {
			if (need && chunk_fits(z, st, p, size, mt)) {
				uint32_t b = p ^ size;

				for (i = p; i < p + size; i++)
					st[i] = ST_FREE;
				/* the buddy stays allocated: no merge */
				if (o < MAX_ORDER - 1 && b < usable)
					for (i = b; i < b + size; i++)
						if (st[i] == ST_PRE)
							st[i] = ST_KEEP;
				need--;
			}
			if (!need || !p)
				break;
		}
		unplaced += need << o;
	}
	return unplaced;
}

static void mark_allocated(struct zone *z, uint32_t pfn, uint32_t n)
{
	uint32_t i;

	for (i = pfn; i < pfn + n; i++) {
		struct page *page = &z->pages[i];

		page->flags = PG_head;
		page->order = 0;
		page->mt = (uint8_t)get_pageblock_migratetype(z, i);
		page->owner = OWNER_PAGE;
		page->private = PRE_HANDLE;
	}
	z->free_pages -= n;
}

/*
 * Where the kernel's blocks of each type are: an allocation the trace
 * shows at a pfn, of a type, with no fallback event for it, came from a
 * block of that type.  Those blocks get their type in the model (as far
 * as the snapshot's counts go), so that the pages freed at the start of
 * the trace, allocated before it, are freed in a block of the right type.
 * Returns per block its type, or -1 when the trace does not tell.
 */
static int8_t *learn_block_types(const struct trace_events *ev,
				 const struct zone_snapshot *s)
{
	int8_t *bt = xmalloc(s->nr_blocks);
	size_t i;

	memset(bt, -1, s->nr_blocks);
	for (i = 0; i < ev->nr; i++) {
		const struct trace_event *e = &ev->ev[i];
		uint64_t blk = (e->pfn - s->start_pfn) >> pageblock_order;

		if (e->pfn < s->start_pfn || blk >= s->nr_blocks)
			continue;
		/* a fallback's page is in a block of another type */
		if (e->type == TEV_EXTFRAG)
			bt[blk] = -2;
		else if (e->type == TEV_ALLOC && bt[blk] == -1 &&
			 e->mt < MIGRATE_TYPES)
			bt[blk] = (int8_t)e->mt;
	}
	return bt;
}

static void type_blocks(struct zone *z, const struct zone_snapshot *s,
			const int8_t *learned)
{
	unsigned long left[MIGRATE_TYPES];
	uint32_t b;
	size_t k = 0;

	memcpy(left, s->blocks, sizeof(left));
	/* the zone starts all movable; -1 marks "not typed yet" here */
	for (b = 0; b < s->nr_blocks; b++) {
		int t = learned[b];

		if (t >= 0 && left[t]) {
			set_pageblock_migratetype(z, b * pageblock_nr_pages, t);
			left[t]--;
		} else {
			z->pageblock_flags[b] = 0xff;
		}
	}
	for (b = 0; b < s->nr_blocks; b++) {
		if (z->pageblock_flags[b] != 0xff)
			continue;
		while (k < sizeof(layout) / sizeof(layout[0]) &&
		       !left[layout[k]])
			k++;
		/* counts as movable until set: the flag byte was overwritten */
		z->pageblock_flags[b] = MIGRATE_MOVABLE;
		set_pageblock_migratetype(z, b * pageblock_nr_pages,
					  k < sizeof(layout) / sizeof(layout[0]) ?
					  layout[k] : MIGRATE_MOVABLE);
		if (k < sizeof(layout) / sizeof(layout[0]))
			left[layout[k]]--;
	}
}

static int build_zone(struct zone *z, const struct zone_snapshot *s,
		      const int8_t *learned, const struct alloc_policy *policy,
		      unsigned long *unplaced)
{
	const uint32_t max_block = 1U << (MAX_ORDER - 1);
	uint32_t usable = (uint32_t)(s->nr_blocks * pageblock_nr_pages);
	uint32_t npages = (usable + max_block - 1) & ~(max_block - 1);
	uint32_t pfn;
	uint8_t *st;
	size_t k;

	if (zone_init(z, "snapshot", npages, policy))
		return -1;
	zone_set_pcp(z, false);
	type_blocks(z, s, learned);
	while ((pfn = __rmqueue_smallest(z, MAX_ORDER - 1, MIGRATE_MOVABLE)) !=
	       NIL_PFN)
		mark_allocated(z, pfn, max_block);
	st = xcalloc(npages, 1);
	/* the padding up to a MAX_ORDER block is never free */
	memset(st + usable, ST_KEEP, npages - usable);
	*unplaced = 0;
	for (k = 0; k < sizeof(layout) / sizeof(layout[0]); k++)
		*unplaced += carve(z, st, usable, s, layout[k]);
	for (pfn = 0; pfn < npages; pfn++)
		if (st[pfn] == ST_FREE)
			free_pages(z, pfn);
	free(st);
	zone_set_pcp(z, true);
	memset(&z->stats, 0, sizeof(z->stats));
	return 0;
}

static int is_pre(const struct zone *z, uint32_t pfn)
{
	const struct page *p = &z->pages[pfn];

	return (p->flags & PG_head) && p->private == PRE_HANDLE;
}

/* Free up to N pre pages of block type MT nearest to PFN; how many. */
static uint32_t free_pre_near(struct zone *z, uint32_t pfn, uint32_t n,
			      int mt, uint32_t usable)
{
	uint32_t done = 0, d;

	for (d = 0; done < n && d < usable; d++) {
		uint32_t c[2] = { pfn + d, pfn - d };
		int i;

		for (i = 0; i < (d ? 2 : 1) && done < n; i++) {
			if (c[i] >= usable || (i && d > pfn))
				continue;
			if (is_pre(z, c[i]) &&
			    get_pageblock_migratetype(z, c[i]) == mt) {
				free_pages(z, c[i]);
				done++;
			}
		}
	}
	return done;
}

static void free_unknown(struct zone *z, struct trace_compare *c,
			 uint32_t off, unsigned int order, uint32_t usable)
{
	uint32_t n = 1U << order, i, in_place = 0;
	int mt;

	c->frees_of_unknown++;
	if (off + n > usable)
		n = usable > off ? usable - off : 0;
	for (i = 0; i < n; i++)
		in_place += is_pre(z, off + i);
	if (n && in_place == n) {
		for (i = 0; i < n; i++)
			free_pages(z, off + i);
		c->frees_in_place++;
		return;
	}
	mt = off < usable ? get_pageblock_migratetype(z, off) :
			    MIGRATE_MOVABLE;
	if (!free_pre_near(z, off < usable ? off : usable - 1, 1U << order,
			   mt, usable))
		c->frees_unmatched++;
}

static void model_state(const struct zone *z, struct zone_snapshot *m,
			const struct zone_snapshot *s)
{
	int t, o;

	*m = *s;
	for (t = 0; t < MIGRATE_TYPES; t++) {
		m->blocks[t] = z->nr_blocks[t];
		for (o = 0; o < MAX_ORDER; o++)
			m->free[t][o] = z->free_area[o].nr_free_mt[t];
	}
	/* the padding blocks are the last ones, still of their first type */
	m->blocks[get_pageblock_migratetype(z, z->nr_pages - 1)] -=
		z->nr_pageblocks - s->nr_blocks;
}

int trace_compare_run(const struct trace_events *ev,
		      const struct zone_snapshot *start,
		      const struct zone_snapshot *end,
		      const struct alloc_policy *policy,
		      struct trace_compare *c, char *err, size_t errlen)
{
	uint32_t usable = (uint32_t)(start->nr_blocks * pageblock_nr_pages);
	int8_t *learned = learn_block_types(ev, start);
	uint32_t *map;
	struct zone z;
	size_t i;
	int rc;

	memset(c, 0, sizeof(*c));
	c->start = *start;
	c->real = *end;
	rc = build_zone(&z, start, learned, policy, &c->unplaced);
	free(learned);
	if (rc) {
		snprintf(err, errlen, "cannot build a zone of %lu pageblocks",
			 start->nr_blocks);
		return -1;
	}
	map = xcalloc(usable, sizeof(*map)); /* model pfn + 1, or FREED */
	for (i = 0; i < ev->nr; i++) {
		const struct trace_event *e = &ev->ev[i];
		uint64_t off = e->pfn - start->start_pfn;

		if (e->pfn < start->start_pfn || off >= usable) {
			c->outside += e->type != TEV_EXTFRAG;
			continue;
		}
		switch (e->type) {
		case TEV_ALLOC: {
			uint32_t p = alloc_pages(&z, e->order, e->mt, 0,
						 OWNER_PAGE, (uint32_t)off);

			c->allocs++;
			if (p == NIL_PFN)
				c->alloc_failed++;
			else
				map[off] = p + 1;
			break;
		}
		case TEV_FREE:
		case TEV_FREE_BATCHED:
			/*
			 * 6.1's free_unref_page_list() traces a page twice,
			 * mm_page_free and mm_page_free_batched: the second
			 * is not another free.
			 */
			if (map[off] == FREED) {
				c->dup_frees++;
				break;
			}
			c->frees++;
			if (map[off]) {
				free_pages(&z, map[off] - 1);
			} else {
				free_unknown(&z, c, (uint32_t)off, e->order,
					     usable);
			}
			map[off] = FREED;
			break;
		case TEV_EXTFRAG:
			c->real_fallbacks++;
			c->real_steals += !!(e->flags & 2);
			break;
		}
	}
	c->model_fallbacks = z.stats.fallbacks;
	c->model_steals = z.stats.steals;
	model_state(&z, &c->model, start);
	free(map);
	zone_destroy(&z);
	return 0;
}

static unsigned long free_pages_of(const struct zone_snapshot *s, int mt)
{
	unsigned long n = 0;
	int o;

	for (o = 0; o < MAX_ORDER; o++)
		n += s->free[mt][o] << o;
	return n;
}

static long labs_diff(unsigned long a, unsigned long b)
{
	return a > b ? (long)(a - b) : (long)(b - a);
}

/*
 * Issue #20's target for pageblocks: within 2 blocks or a quarter of the
 * change, whichever is larger, and closer than "nothing changed".
 */
static int blocks_within(unsigned long start, unsigned long real,
			 unsigned long model)
{
	long err = labs_diff(model, real), change = labs_diff(real, start);
	long tol = change / 4 > 2 ? change / 4 : 2;

	return err <= tol && (change ? err < change : err == 0);
}

static void row(FILE *out, int tsv, const char *zone, const char *mt,
		const char *measure, unsigned long s, unsigned long r,
		unsigned long m, const char *within)
{
	long e = (long)m - (long)r;

	if (tsv)
		fprintf(out, "%s\t%s\t%s\t%lu\t%lu\t%lu\t%+ld\t%s\n", zone, mt,
			measure, s, r, m, e, within);
	else
		fprintf(out, "%-6s %-12s %-11s %8lu %8lu %8lu %+8ld %s\n",
			zone, mt, measure, s, r, m, e, within);
}

int trace_compare_print(FILE *out, const char *zone,
			const struct trace_compare *c, int tsv)
{
	static const int shown[] = { MIGRATE_UNMOVABLE, MIGRATE_MOVABLE,
				     MIGRATE_RECLAIMABLE, MIGRATE_HIGHATOMIC };
	const struct zone_snapshot *s = &c->start, *r = &c->real, *m = &c->model;
	int misses = 0, o;
	size_t k;
	char measure[16];
	long fe = labs_diff(c->model_fallbacks, c->real_fallbacks);

	if (tsv)
		fprintf(out, "zone\tmigratetype\tmeasure\tstart\treal\tmodel\t"
			     "error\twithin\n");
	else
		fprintf(out, "%-6s %-12s %-11s %8s %8s %8s %8s %s\n", "zone",
			"migratetype", "measure", "start", "real", "model",
			"error", "within");
	for (k = 0; k < sizeof(shown) / sizeof(shown[0]); k++) {
		int t = shown[k];
		const char *name = migratetype_names[t];
		int ok = blocks_within(s->blocks[t], r->blocks[t],
				       m->blocks[t]);

		misses += !ok;
		row(out, tsv, zone, name, "blocks", s->blocks[t], r->blocks[t],
		    m->blocks[t], ok ? "yes" : "no");
		row(out, tsv, zone, name, "free_pages", free_pages_of(s, t),
		    free_pages_of(r, t), free_pages_of(m, t), "-");
		for (o = 0; o < MAX_ORDER; o++) {
			snprintf(measure, sizeof(measure), "free_order%d", o);
			row(out, tsv, zone, name, measure, s->free[t][o],
			    r->free[t][o], m->free[t][o], "-");
		}
	}
	/* a count is off by one event at least: 2 against 3 is not 33 % */
	row(out, tsv, zone, "-", "fallbacks", 0, c->real_fallbacks,
	    c->model_fallbacks,
	    fe <= 1 || fe * 4 <= (long)c->real_fallbacks ? "yes" : "no");
	row(out, tsv, zone, "-", "steals", 0, c->real_steals, c->model_steals,
	    "-");
	fprintf(tsv ? stderr : out,
		"# %lu allocations (%lu failed in the model), %lu frees (and "
		"%lu traced twice), (%lu of "
		"pages allocated before the trace: %lu at their own offset, "
		"%lu with nothing to free), %lu events of other zones; "
		"%lu free pages of the start state not placed\n",
		c->allocs, c->alloc_failed, c->frees, c->dup_frees,
		c->frees_of_unknown,
		c->frees_in_place, c->frees_unmatched, c->outside, c->unplaced);
	return misses;
}
