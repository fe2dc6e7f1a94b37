// SPDX-License-Identifier: GPL-2.0
/* A syscall body written through SYSCALL_DEFINE2, as in 4.13 mm/shmem.c. */
#include <linux/slab.h>
#include <linux/syscalls.h>

#define MFD_NAME_PREFIX "memfd:"
#define MFD_NAME_PREFIX_LEN (sizeof(MFD_NAME_PREFIX) - 1)

SYSCALL_DEFINE2(memfd_create,
		const char __user *, uname,
		unsigned int, flags)
{
	char *name;
	long len = 249;

	name = kmalloc(len + MFD_NAME_PREFIX_LEN + 1, GFP_TEMPORARY);
	if (!name)
		return -12;
	kfree(name);
	return 0;
}
