/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_ALLOCATOR_PROCFS_H
#define GFPAUDIT_ALLOCATOR_PROCFS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * What a real system's /proc/buddyinfo, /proc/pagetypeinfo and
 * /sys/kernel/debug/page_owner say.  Each parser is a pure function over a
 * buffer (fuzz targets call them directly); on malformed input it returns
 * -1 with the 1-based line and a one-line message in *err.
 */
#define FRAG_MAX_ORDERS 16 /* MAX_ORDER is 11 on x86-64, up to 14 on arm64 */
#define FRAG_MAX_TYPES 8
#define FRAG_MAX_ZONES 64
#define FRAG_NAME 24
#define PAGETYPEINFO_CAP 100000 /* 6.1 stops counting a list there */
/*
 * A count of order-O blocks above FRAG_MAX_PAGES >> O is refused: no
 * machine has 2^48 free pages, and the vmstat.c arithmetic (pages * 1000
 * in 64 bits) stays exact below it.
 */
#define FRAG_MAX_PAGES (1ULL << 48)

struct frag_zone {
	int node;
	char name[FRAG_NAME];
	bool have_buddyinfo, have_pagetypeinfo, have_blocks, have_mixed;
	int nr_orders;
	unsigned long nr_free[FRAG_MAX_ORDERS]; /* buddyinfo */
	/* pagetypeinfo, indexed by frag_info.types[] */
	unsigned long free_mt[FRAG_MAX_TYPES][FRAG_MAX_ORDERS];
	bool capped[FRAG_MAX_TYPES][FRAG_MAX_ORDERS];
	bool type_seen[FRAG_MAX_TYPES];
	unsigned long blocks[FRAG_MAX_TYPES];
	unsigned long mixed[FRAG_MAX_TYPES];
};

struct frag_info {
	int pb_order; /* "Page block order:", -1 when not given */
	unsigned long pages_per_block;
	int nr_types;
	char types[FRAG_MAX_TYPES][FRAG_NAME]; /* "Unmovable", ... */
	int nr_zones;
	struct frag_zone zones[FRAG_MAX_ZONES];
};

struct parse_error {
	int line;
	char msg[200];
};

void frag_info_init(struct frag_info *fi);
int parse_buddyinfo(const char *buf, size_t len, struct frag_info *fi,
		    struct parse_error *err);
int parse_pagetypeinfo(const char *buf, size_t len, struct frag_info *fi,
		       struct parse_error *err);

/* Set *err (line and message) and return -1. */
int parse_fail(struct parse_error *err, int line, const char *msg);
/* Index of NAME in a table of NR names (added when new); -1 when full. */
int name_index(char (*names)[FRAG_NAME], int *nr, const char *name);

/* Find or add zone (node, name); NULL when the table is full. */
struct frag_zone *frag_zone_get(struct frag_info *fi, int node,
				const char *name);
/* Index of migratetype NAME in fi->types, added if new; -1 when full. */
int frag_type_index(struct frag_info *fi, const char *name);

/*
 * page_owner: "Page allocated via order O, mask M(...)" then "PFN P type T
 * Block B type BT Flags ...": a pageblock is mixed when a page's type
 * differs from its block's, counted once per block per block type.
 */
struct page_owner_stats {
	unsigned long records;
	unsigned long mixed_blocks; /* distinct mixed pageblocks */
	int nr_types;
	char types[FRAG_MAX_TYPES][FRAG_NAME];
	unsigned long mixed_by_type[FRAG_MAX_TYPES];
};

int parse_page_owner(const char *buf, size_t len, struct page_owner_stats *st,
		     struct parse_error *err);

#endif
