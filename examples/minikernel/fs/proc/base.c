// SPDX-License-Identifier: GPL-2.0
/* Flags passed through a local variable, set and then widened. */
#include <linux/slab.h>

static int proc_pid_cmdline_read(unsigned long count)
{
	gfp_t gfp = GFP_TEMPORARY;
	char *page;

	page = (char *)__get_free_page(gfp);
	if (!page)
		return -12;
	return 0;
}

static char *environ_buf(unsigned long size, int zero)
{
	gfp_t flags;

	flags = GFP_TEMPORARY;
	if (zero)
		flags |= __GFP_ZERO;
	return kvmalloc(size, flags);
}
