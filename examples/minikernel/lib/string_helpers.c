// SPDX-License-Identifier: GPL-2.0
/* 4.13: the gfp parameter is ignored and GFP_TEMPORARY hard-coded. */
#include <linux/slab.h>

#define PAGE_SIZE 4096

char *kstrdup_quotable_cmdline(struct task_struct *task, gfp_t gfp)
{
	char *buffer, *quoted;

	buffer = kmalloc(PAGE_SIZE, GFP_TEMPORARY);
	if (!buffer)
		return (void *)0;
	quoted = kstrdup(buffer, gfp);
	kfree(buffer);
	return quoted;
}
