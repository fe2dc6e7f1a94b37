/* 2.6.24: path buffers came from GFP_TEMPORARY through a macro. */
#include <linux/slab.h>

#define __getname()	kmem_cache_alloc(names_cachep, GFP_TEMPORARY)

static char *getname(const char *filename)
{
	char *tmp = __getname();

	return tmp;
}

static void *follow_link_buf(void)
{
	return (void *)__get_free_page(GFP_TEMPORARY);
}
