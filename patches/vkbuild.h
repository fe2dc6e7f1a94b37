/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_PATCHES_VKBUILD_H
#define GFPAUDIT_PATCHES_VKBUILD_H

#include "lib/util.h"

/* sparse through kbuild's C=2 on a configured tree (vkbuild.c). */
struct vkbuild;

/*
 * NULL unless TREE is configured (.config and
 * include/generated/autoconf.h) and make is installed.  The farm kbuild
 * runs in is made under workdir on first use.
 */
struct vkbuild *vkbuild_new(const char *tree, const char *workdir);
void vkbuild_free(struct vkbuild *k);

/* 1 when the tree's .config builds the object of path (a .c file). */
int vkbuild_builds(struct vkbuild *k, const char *path);

/*
 * Put file's content at path in the farm and run `make -s C=2
 * CHECK=sparse [ARCH=] [LLVM=1] path.o` there; make's output into out.
 * Returns make's exit status, or -1 when it could not run.
 */
int vkbuild_sparse(struct vkbuild *k, const char *path, const char *file,
		   struct strbuf *out);

/* The make command line for messages ("make C=2 CHECK=sparse LLVM=1"). */
const char *vkbuild_args(const struct vkbuild *k, char *buf, size_t len);

#endif
