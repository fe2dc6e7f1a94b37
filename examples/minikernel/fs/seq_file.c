// SPDX-License-Identifier: GPL-2.0
/* A multi-line call and a plain temporary buffer. */
#include <linux/slab.h>

static void *seq_buf_alloc(unsigned long size)
{
	return kvmalloc(size,
			GFP_TEMPORARY);
}

int seq_open_private(void **priv, int psize)
{
	void *p = kmalloc(psize, GFP_KERNEL | __GFP_ZERO);

	if (!p)
		return -12;
	*priv = p;
	return 0;
}
