/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_KTREE_H
#define GFPAUDIT_KTREE_H

/* What a kernel tree's top-level Makefile says about its version. */
struct kversion {
	int version, patchlevel, sublevel;
	char extraversion[64];
	char text[96]; /* "4.13.0-rc5" */
};

/*
 * Read VERSION/PATCHLEVEL/SUBLEVEL/EXTRAVERSION from TREE/Makefile.
 * Returns 0, or -1 when TREE has no Makefile with a VERSION line (the
 * caller says "not a kernel tree").
 */
int ktree_version(const char *tree, struct kversion *kv);

/* Parse "4.13", "2.6.24", "6.1.0-rc1" into kv; -1 if malformed. */
int kversion_parse(const char *s, struct kversion *kv);

/* Compare a..b as integers (major, minor, sublevel): <0, 0, >0. */
int kversion_cmp(const struct kversion *a, const struct kversion *b);

/* KERNEL_VERSION(a,b,c)-style integer for quick comparisons. */
static inline long kversion_code(const struct kversion *kv)
{
	return ((long)kv->version << 16) + ((long)kv->patchlevel << 8) +
	       (kv->sublevel > 255 ? 255 : kv->sublevel);
}

/* git HEAD of TREE (40 hex + NUL in out), or -1 when not a git tree. */
int ktree_git_head(const char *tree, char out[41]);

/*
 * The URL of TREE's git remote "origin" (malloc'd; credentials in it
 * removed), or NULL when TREE is not a git work tree root or has none.
 */
char *ktree_git_remote(const char *tree);

#endif
