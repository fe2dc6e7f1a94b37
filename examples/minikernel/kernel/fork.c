// SPDX-License-Identifier: GPL-2.0
/* Allocations with constants, arrays and duplicated strings. */
#include <linux/slab.h>

struct task_struct {
	char comm[16];
	void **stack;
};

static int dup_task(struct task_struct *tsk, const char *name)
{
	tsk->stack = kcalloc(4, sizeof(void *), GFP_KERNEL);
	if (!tsk->stack)
		return -12;
	if (!kasprintf(GFP_KERNEL, "%s-%d", name, 1))
		return -12;
	tsk->stack[0] = kmemdup(name, 16 * 2, GFP_ATOMIC);
	return 0;
}
