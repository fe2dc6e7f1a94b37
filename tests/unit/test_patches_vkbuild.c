// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for patches/vkbuild.c: which objects a tree's .config
 * builds, read from its Makefiles as kbuild would.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "patches/scratch.h"
#include "patches/vkbuild.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char tree[] = "/tmp/gfpaudit-vkbuild.XXXXXX";

static void put(const char *rel, const char *text)
{
	char *p = xasprintf("%s/%s", tree, rel);
	char *dir = xstrdup(p);
	FILE *f;

	*strrchr(dir, '/') = '\0';
	assert_int_equal(mkdir_p(dir), 0);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	free(dir);
	free(p);
}

static void test_builds(void **state)
{
	struct vkbuild *k;

	(void)state;
	assert_non_null(mkdtemp(tree));
	put(".config", "#\n# Linux/x86 6.1.0 Kernel Configuration\n#\n"
		       "CONFIG_PROC_FS=y\nCONFIG_MMU=y\nCONFIG_TTY=m\n"
		       "# CONFIG_BOOT_CONFIG is not set\n");
	put("include/generated/autoconf.h", "");
	put("fs/Makefile", "obj-y := open.o \\\n\tread_write.o\n"
			   "obj-$(CONFIG_PROC_FS)\t\t+= proc/\n"
			   "obj-$(CONFIG_NFS_FS)\t\t+= nfs/\n");
	put("fs/proc/Makefile",
	    "# proc\nobj-y   += proc.o\n"
	    "proc-y\t\t\t:= nommu.o task_nommu.o\n"
	    "proc-$(CONFIG_MMU)\t:= task_mmu.o\n"
	    "proc-y       += inode.o root.o base.o generic.o array.o \\\n"
	    "\t\tfd.o\n"
	    "proc-$(CONFIG_TTY)      += proc_tty.o\n"
	    "proc-$(CONFIG_BOOT_CONFIG)\t+= bootconfig.o\n");
	put("fs/nfs/Makefile", "obj-y += inode.o\n");
	k = vkbuild_new(tree, tree);
	assert_non_null(k);
	assert_int_equal(vkbuild_builds(k, "fs/open.c"), 1);
	assert_int_equal(vkbuild_builds(k, "fs/read_write.c"), 1);
	assert_int_equal(vkbuild_builds(k, "fs/proc/base.c"), 1);
	assert_int_equal(vkbuild_builds(k, "fs/proc/fd.c"), 1);
	assert_int_equal(vkbuild_builds(k, "fs/proc/task_mmu.c"), 1);
	assert_int_equal(vkbuild_builds(k, "fs/proc/proc_tty.c"), 1);
	/* Taken back by proc-$(CONFIG_MMU) := task_mmu.o. */
	assert_int_equal(vkbuild_builds(k, "fs/proc/task_nommu.c"), 0);
	assert_int_equal(vkbuild_builds(k, "fs/proc/bootconfig.c"), 0);
	assert_int_equal(vkbuild_builds(k, "fs/proc/nothere.c"), 0);
	/* Listed, but its directory is not built. */
	assert_int_equal(vkbuild_builds(k, "fs/nfs/inode.c"), 0);
	assert_int_equal(vkbuild_builds(k, "fs/proc/base.h"), 0);
	vkbuild_free(k);
	assert_int_equal(remove_tree(tree), 0);
}

static void test_unconfigured(void **state)
{
	char t[] = "/tmp/gfpaudit-vkbuild.XXXXXX";

	(void)state;
	assert_non_null(mkdtemp(t));
	assert_null(vkbuild_new(t, t));
	assert_int_equal(remove_tree(t), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builds),
		cmocka_unit_test(test_unconfigured),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
