// SPDX-License-Identifier: GPL-2.0
/* A driver-local allocation macro, and #ifdef'd NUMA variants. */
#include <linux/slab.h>

#define TMPBUF_SIZE 512
#define tmpbuf_alloc(sz) kmalloc((sz), GFP_TEMPORARY)
#define TMPBUF_GFP (GFP_TEMPORARY | __GFP_NOWARN)

static void *tmpbuf_get(void)
{
	return tmpbuf_alloc(TMPBUF_SIZE);
}

static struct page *tmpbuf_page(int nid)
{
#ifdef CONFIG_NUMA
	return alloc_pages_node(nid, TMPBUF_GFP, 0);
#else
	return alloc_pages(TMPBUF_GFP, 0);
#endif
}

#ifdef CONFIG_TMPBUF_DEBUG
static void *tmpbuf_debug(unsigned int order)
#else
static void *tmpbuf_nodebug(unsigned int order)
#endif
{
	return (void *)__get_free_pages(GFP_KERNEL | __GFP_RECLAIMABLE, order);
}
