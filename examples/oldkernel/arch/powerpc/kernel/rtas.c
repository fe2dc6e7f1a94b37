/* Non-host arch, #ifdef branches. */
#include <linux/slab.h>

static void *rtas_buf(unsigned long len)
{
#ifdef CONFIG_PPC64
	return kmalloc(len, GFP_TEMPORARY);
#else
	return kmalloc(len, GFP_KERNEL);
#endif
}
