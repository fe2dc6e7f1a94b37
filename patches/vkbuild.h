/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_PATCHES_VKBUILD_H
#define GFPAUDIT_PATCHES_VKBUILD_H

#include "lib/util.h"

/* Objects built by the tree's own kbuild, in a farm (vkbuild.c). */
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

/* The arch the .config is for (its "# Linux/x86 ..." header), or NULL. */
const char *vkbuild_arch(const struct vkbuild *k);

/* Put file's content at path in the farm, a real file; 0 or -1. */
int vkbuild_put(struct vkbuild *k, const char *path, const char *file);

/*
 * `make -s -k [C=2 CHECK='sparse -fdiagnostic-prefix'] [ARCH=] [LLVM=1]
 * OBJS` in the farm, each object's .o and .o.cmd removed first, so that
 * each is built (and checked) whatever the timestamps.  sparse's lines
 * then read "FILE:L:C: sparse: warning: ...", gcc's do not.  Output into
 * out; make's exit status, or -1 when it could not run.
 */
int vkbuild_make(struct vkbuild *k, char *const *objs, int n, int sparse,
		 struct strbuf *out);

/* 1 when the last make built obj (its .o is in the farm). */
int vkbuild_built(struct vkbuild *k, const char *obj);

/*
 * 1 when kbuild's record of obj's build (.obj.cmd, fixdep's dependency
 * list) names path: the object was compiled with that file.
 */
int vkbuild_uses(struct vkbuild *k, const char *obj, const char *path);

/* The make command line for messages ("make C=2 ... LLVM=1"). */
const char *vkbuild_args(const struct vkbuild *k, int sparse, char *buf,
			 size_t len);

#endif
