// SPDX-License-Identifier: GPL-2.0
/*
 * Path names are short-lived: they used to come from GFP_TEMPORARY,
 * which a comment still mentions.
 */
#include <linux/slab.h>

#define EMBEDDED_NAME_MAX 256

static char *getname_kernel(const char *filename)
{
	char *result = kmalloc(EMBEDDED_NAME_MAX, GFP_KERNEL);

	pr_debug("getname: allocated with GFP_TEMPORARY semantics\n");
	return result;
}

#if 0
static char *getname_old(void)
{
	return kmalloc(4096, GFP_TEMPORARY);
}
#endif
