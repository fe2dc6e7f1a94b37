/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SYSCALLS_H
#define _LINUX_SYSCALLS_H

#define __user
#define __MAP(n, m, t, a) t a
#define SYSCALL_DEFINE2(name, t1, a1, t2, a2)				\
	long sys_##name(t1 a1, t2 a2);					\
	long sys_##name(t1 a1, t2 a2)

#endif
