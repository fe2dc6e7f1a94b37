// SPDX-License-Identifier: GPL-2.0
/*
 * Fragmentation metrics computed exactly as Linux 6.1 mm/vmstat.c does
 * (fill_contig_page_info, unusable_free_index, __fragmentation_index) and
 * the /proc/pagetypeinfo and /proc/buddyinfo layouts.
 */
#include <stdio.h>

#include "allocator/vmstat.h"

void fill_contig_page_info(const unsigned long *nr_free, int nr_orders,
			   unsigned int suitable_order,
			   struct contig_page_info *info)
{
	int order;

	info->free_pages = 0;
	info->free_blocks_total = 0;
	info->free_blocks_suitable = 0;
	for (order = 0; order < nr_orders; order++) {
		unsigned long blocks = nr_free[order];

		info->free_blocks_total += blocks;
		info->free_pages += blocks << order;
		if ((unsigned int)order >= suitable_order)
			info->free_blocks_suitable +=
				blocks << (order - suitable_order);
	}
}

int unusable_free_index(unsigned int order, const struct contig_page_info *info)
{
	/* No free memory is interpreted as all free memory is unusable */
	if (info->free_pages == 0)
		return 1000;
	return (int)((info->free_pages -
		      (info->free_blocks_suitable << order)) *
		     1000ULL / info->free_pages);
}

int __fragmentation_index(unsigned int order, int nr_orders,
			  const struct contig_page_info *info)
{
	unsigned long requested = 1UL << order;

	if (order >= (unsigned int)nr_orders)
		return 0;
	if (!info->free_blocks_total)
		return 0;
	/* Fragmentation index only makes sense when a request would fail */
	if (info->free_blocks_suitable)
		return -1000;
	/* 0: would fail for lack of memory, 1000: because of fragmentation */
	return (int)(1000 - ((1000 + (info->free_pages * 1000ULL / requested)) /
			     info->free_blocks_total));
}

const char *format_index(char buf[16], int index)
{
	/* seq_printf("%d.%03d", index / 1000, index % 1000): -1000 -> -1.000 */
	snprintf(buf, 16, "%d.%03d", index / 1000,
		 index % 1000 < 0 ? -(index % 1000) : index % 1000);
	return buf;
}

void zone_nr_free(const struct zone *zone, unsigned long nr_free[MAX_ORDER])
{
	int o;

	for (o = 0; o < MAX_ORDER; o++)
		nr_free[o] = zone->free_area[o].nr_free;
}

unsigned long zone_mixed_pageblocks(const struct zone *zone,
				    unsigned long count[MIGRATE_TYPES])
{
	unsigned long total = 0;
	uint32_t pfn = 0;
	int mt;

	for (mt = 0; mt < MIGRATE_TYPES; mt++)
		count[mt] = 0;
	while (pfn < zone->nr_pages) {
		uint32_t end = (pfn | (pageblock_nr_pages - 1)) + 1;
		int pageblock_mt = get_pageblock_migratetype(zone, pfn);

		while (pfn < end) {
			const struct page *page = &zone->pages[pfn];

			if (PageBuddy(page)) {
				pfn += 1U << page->order;
				continue;
			}
			if (!(page->flags & PG_head)) {
				pfn++;
				continue;
			}
			if (page->mt != pageblock_mt) {
				count[pageblock_mt]++;
				total++;
				pfn = end;
				break;
			}
			pfn += 1U << page->order;
		}
		/* an allocation larger than a pageblock ends past it */
		if (pfn < end)
			pfn = end;
	}
	return total;
}

unsigned long zone_mixed_mobility_blocks(const struct zone *zone)
{
	unsigned long mixed = 0;
	uint32_t b;

	for (b = 0; b < zone->nr_pageblocks; b++) {
		uint32_t pfn = b << pageblock_order,
			 end = pfn + pageblock_nr_pages;
		unsigned int seen = 0;

		while (pfn < end) {
			const struct page *page = &zone->pages[pfn];

			if (page->flags & PG_head)
				seen |= 1U << page->mt;
			pfn += (page->flags & (PG_head | PG_buddy))
				       ? 1U << page->order
				       : 1;
		}
		if (seen & (seen - 1))
			mixed++;
	}
	return mixed;
}

/* The layout of 6.1 pagetypeinfo_show(); counts are not capped here. */
void print_pagetypeinfo(FILE *out, const struct zone *zone)
{
	static const int shown[] = {MIGRATE_UNMOVABLE, MIGRATE_MOVABLE,
				    MIGRATE_RECLAIMABLE, MIGRATE_HIGHATOMIC,
				    MIGRATE_ISOLATE};
	unsigned long mixed[MIGRATE_TYPES];
	unsigned int i;
	int o;

	fprintf(out, "Page block order: %d\n", pageblock_order);
	fprintf(out, "Pages per block:  %u\n\n", pageblock_nr_pages);
	fprintf(out, "%-43s ", "Free pages count per migrate type at order");
	for (o = 0; o < MAX_ORDER; o++)
		fprintf(out, "%6d ", o);
	fputc('\n', out);
	for (i = 0; i < sizeof(shown) / sizeof(shown[0]); i++) {
		fprintf(out, "Node %4d, zone %8s, type %12s ", 0, zone->name,
			migratetype_names[shown[i]]);
		for (o = 0; o < MAX_ORDER; o++)
			fprintf(out, "%6u ",
				zone->free_area[o].nr_free_mt[shown[i]]);
		fputc('\n', out);
	}
	fprintf(out, "\n%-23s", "Number of blocks type ");
	for (i = 0; i < sizeof(shown) / sizeof(shown[0]); i++)
		fprintf(out, "%12s ", migratetype_names[shown[i]]);
	fprintf(out, "\nNode %d, zone %8s ", 0, zone->name);
	for (i = 0; i < sizeof(shown) / sizeof(shown[0]); i++)
		fprintf(out, "%12lu ", zone->nr_blocks[shown[i]]);
	fputc('\n', out);
	/* with CONFIG_PAGE_OWNER, pagetypeinfo_showmixedcount() follows */
	zone_mixed_pageblocks(zone, mixed);
	fprintf(out, "\n%-23s", "Number of mixed blocks ");
	for (i = 0; i < sizeof(shown) / sizeof(shown[0]); i++)
		fprintf(out, "%12s ", migratetype_names[shown[i]]);
	fprintf(out, "\nNode %d, zone %8s ", 0, zone->name);
	for (i = 0; i < sizeof(shown) / sizeof(shown[0]); i++)
		fprintf(out, "%12lu ", mixed[shown[i]]);
	fputc('\n', out);
}

void print_buddyinfo(FILE *out, const struct zone *zone)
{
	int o;

	fprintf(out, "Node %d, zone %8s ", 0, zone->name);
	for (o = 0; o < MAX_ORDER; o++)
		fprintf(out, "%6lu ", zone->free_area[o].nr_free);
	fputc('\n', out);
}
