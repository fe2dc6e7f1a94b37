// SPDX-License-Identifier: GPL-2.0
/* Not built on x86: found all the same. */
#include <linux/gfp.h>

static unsigned long pte_fragment_alloc(void)
{
#ifdef CONFIG_PPC_64K_PAGES
	return __get_free_pages(GFP_TEMPORARY | __GFP_ZERO, 4);
#else
	return __get_free_page(GFP_TEMPORARY | __GFP_ZERO);
#endif
}
