/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_ALLOCATOR_VMSTAT_H
#define GFPAUDIT_ALLOCATOR_VMSTAT_H

#include <stdio.h>

#include "allocator/mmzone.h"

/*
 * The fragmentation metrics of mm/vmstat.c, over a free_area[].nr_free
 * array of NR_ORDERS entries, so the model's zones and a real system's
 * /proc/buddyinfo are measured by the same code.
 */
struct contig_page_info {
	unsigned long free_pages;
	unsigned long free_blocks_total;
	unsigned long free_blocks_suitable;
};

void fill_contig_page_info(const unsigned long *nr_free, int nr_orders,
			   unsigned int suitable_order,
			   struct contig_page_info *info);
/* debugfs extfrag/unusable_index: 0..1000 */
int unusable_free_index(unsigned int order,
			const struct contig_page_info *info);
/* debugfs extfrag/extfrag_index: -1000 when the request would succeed */
int __fragmentation_index(unsigned int order, int nr_orders,
			  const struct contig_page_info *info);
/* "%d.%03d" of index/1000, index%1000, as debugfs prints them */
const char *format_index(char buf[16], int index);

/* nr_free per order of a model zone */
void zone_nr_free(const struct zone *zone, unsigned long nr_free[MAX_ORDER]);

/*
 * pagetypeinfo_showmixedcount_print() (page_owner): pageblocks holding
 * an allocated page whose request type differs from the block's type,
 * counted per block type.  The model uses the caller's mobility bits as
 * page_owner records them; under nogroup the kernel's gfp_migratetype()
 * would call every page unmovable.
 */
unsigned long zone_mixed_pageblocks(const struct zone *zone,
				    unsigned long count[MIGRATE_TYPES]);
/* Pageblocks holding allocated pages of more than one mobility. */
unsigned long zone_mixed_mobility_blocks(const struct zone *zone);

/* /proc/pagetypeinfo of the model, in the 6.1 layout. */
void print_pagetypeinfo(FILE *out, const struct zone *zone);
/* /proc/buddyinfo of the model. */
void print_buddyinfo(FILE *out, const struct zone *zone);

#endif
