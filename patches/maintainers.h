/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_PATCHES_MAINTAINERS_H
#define GFPAUDIT_PATCHES_MAINTAINERS_H

#include "lib/util.h"

/* A list of unique addresses, in first-seen order. */
struct addr_list {
	char **v;
	int n;
};

void addr_add(struct addr_list *l, const char *a);
void addr_list_free(struct addr_list *l);

/* MAINTAINERS parsed into sections (the tree's file, or a test's). */
struct maint_section;
struct maintainers {
	struct maint_section *s;
	int n;
};

/* Pure: parse a MAINTAINERS buffer.  Never fails (bad lines are skipped). */
void maintainers_parse(const char *buf, size_t len, struct maintainers *m);
void maintainers_free(struct maintainers *m);

/*
 * Add the people for path: M: entries to `to`, R: entries and L: lists to
 * `cc`, from every section whose F:/N: patterns match and X: do not.  The
 * catch-all section (F: *) adds only its lists when a more specific
 * section matched, as get_maintainer.pl's output does.
 */
void maintainers_for(const struct maintainers *m, const char *path,
		     struct addr_list *to, struct addr_list *cc);

/*
 * Ask the tree's scripts/get_maintainer.pl about a patch file (absolute
 * path).  Returns 0, or -1 when the script is missing or failed.
 */
int get_maintainer_pl(const char *tree, const char *patch, struct addr_list *to,
		      struct addr_list *cc);

#endif
