// SPDX-License-Identifier: GPL-2.0
/*
 * gen_trace: write a synthetic kmem trace in the trace_pipe layout of a
 * given kernel (pfn hex from 5.14, decimal before) for replay tests and
 * the trace benchmark: a pool of live pages of mixed orders and
 * migratetypes, allocated and freed at random, with extfrag events.
 *
 *   gen_trace EVENTS [VERSION] [SEED]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *pfn_str(char *buf, unsigned long pfn, int hex)
{
	snprintf(buf, 32, hex ? "0x%lx" : "%lu", pfn);
	return buf;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000;
	const char *ver = argc > 2 ? argv[2] : "6.1";
	uint64_t seed = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
	int hex = atoi(ver) > 5 || !strncmp(ver, "5.14", 4) ||
		  !strncmp(ver, "5.15", 4);
	enum { POOL = 20000 };
	static unsigned long live[POOL];
	static int order[POOL];
	unsigned long i, next_pfn = 0x100000;
	int nlive = 0;

	for (i = 0; i < n; i++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		unsigned int r = (unsigned int)(seed >> 33);
		double ts = 100.0 + (double)i * 1e-6;
		char pb[32];

		if (nlive < POOL / 2 || (nlive < POOL && r % 2)) {
			int o = r % 16 == 0 ? (int)(r >> 8) % 4 : 0;
			int mt = (r >> 4) % 8 < 5 ? 1 : (int)((r >> 4) % 2) * 2;

			live[nlive] = next_pfn;
			order[nlive++] = o;
			printf("            cc1-4001    [001] .....  %.6f: "
			       "mm_page_alloc: page=00000000deadbeef pfn=%s "
			       "order=%d migratetype=%d gfp_flags=GFP_KERNEL\n",
			       ts, pfn_str(pb, next_pfn, hex), o, mt);
			next_pfn += 1UL << o;
		} else if (r % 50 == 1) {
			printf("          <idle>-0       [000] ..s1.  %.6f: "
			       "mm_page_alloc_extfrag: page=00000000deadbeef "
			       "pfn=%s alloc_order=0 fallback_order=10 "
			       "pageblock_order=9 alloc_migratetype=0 "
			       "fallback_migratetype=1 fragmenting=0 "
			       "change_ownership=1\n",
			       ts, pfn_str(pb, next_pfn, hex));
		} else {
			int k = (int)((r >> 3) % (unsigned int)nlive);

			printf("            cc1-4001    [001] .....  %.6f: %s: "
			       "page=00000000deadbeef pfn=%s order=%d\n",
			       ts,
			       order[k] == 0 && r % 3 == 0
				       ? "mm_page_free_batched"
				       : "mm_page_free",
			       pfn_str(pb, live[k], hex), order[k]);
			live[k] = live[--nlive];
			order[k] = order[nlive];
		}
	}
	return 0;
}
