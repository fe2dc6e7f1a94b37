// SPDX-License-Identifier: GPL-2.0
/*
 * bench_allocator: order-0 alloc+free pairs per second on one core and the
 * model's bytes per page.  Two patterns: "steady" (the zone half full of
 * scattered order-0 pages, as a running system is, so frees rarely merge
 * all the way up) and "empty" (alloc then free on an empty zone: every
 * pair splits and re-merges a whole MAX_ORDER block, the worst case, when
 * the pcp lists are off: "empty-nopcp").  Times are the process's CPU
 * time (CLOCK_PROCESS_CPUTIME_ID): the machine is shared.
 *
 * The peer is glibc malloc(4096)/free in the same loop.
 *
 *   bench_allocator [pairs]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "allocator/mmzone.h"
#include "allocator/policy.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double run(struct zone *z, long pairs)
{
	double t0 = now();
	long i;

	for (i = 0; i < pairs; i++) {
		uint32_t pfn =
			alloc_pages(z, 0, (int)(i % 3), 0, OWNER_PAGE, 0);

		free_pages(z, pfn);
	}
	return (double)pairs / (now() - t0);
}

/* the peer: glibc malloc/free of a page-sized block, same loop shape */
static double run_malloc(long pairs)
{
	double t0 = now();
	long i;

	for (i = 0; i < pairs; i++) {
		void *volatile p = malloc(PAGE_SIZE);

		free(p);
	}
	return (double)pairs / (now() - t0);
}

int main(int argc, char **argv)
{
	long pairs = argc > 1 ? atol(argv[1]) : 20000000L;
	const uint32_t nr = 262144; /* 1 GB */
	const struct alloc_policy *const *p;
	uint64_t seed = 1;

	printf("bytes_per_page\t%.3f\n",
	       (double)sizeof(struct page) + 1.0 / pageblock_nr_pages);
	printf("peer\tmalloc-4k\t%.1f\tMpairs/s\n", run_malloc(pairs) / 1e6);
	for (p = alloc_policies; *p; p++) {
		struct zone z;
		uint32_t i, *held = malloc(nr * sizeof(*held)), n = 0;

		/* the buddy lists alone, without the pcp lists in front */
		zone_init(&z, "Normal", nr, *p);
		zone_set_pcp(&z, false);
		printf("empty-nopcp\t%s\t%.1f\tMpairs/s\n", (*p)->name,
		       run(&z, pairs / 4) / 1e6);
		zone_destroy(&z);
		zone_init(&z, "Normal", nr, *p);
		printf("empty\t%s\t%.1f\tMpairs/s\n", (*p)->name,
		       run(&z, pairs) / 1e6);
		for (i = 0; i < nr / 2; i++) {
			uint32_t pfn = alloc_pages(&z, 0, (int)(i % 3), 0,
						   OWNER_PAGE, 0);
			held[n++] = pfn;
		}
		/* free a random half of them: scattered holes */
		for (i = 0; i < n; i++) {
			seed = seed * 6364136223846793005ULL +
			       1442695040888963407ULL;
			if ((seed >> 33) & 1)
				free_pages(&z, held[i]);
		}
		printf("steady\t%s\t%.1f\tMpairs/s\n", (*p)->name,
		       run(&z, pairs) / 1e6);
		zone_destroy(&z);
		free(held);
	}
	return 0;
}
