/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_PATCHES_MAINTAINERS_H
#define GFPAUDIT_PATCHES_MAINTAINERS_H

#include "lib/maintainers.h"
#include "lib/util.h"

/* A list of unique addresses, in first-seen order. */
struct addr_list {
	char **v;
	int n;
};

void addr_add(struct addr_list *l, const char *a);
void addr_list_free(struct addr_list *l);

/*
 * Add the people for path: M: entries to `to`, R: entries and L: lists to
 * `cc`, from every entry covering it (lib/maintainers.h), most specific
 * first.  The catch-all entry (F: *) adds only its lists when a more
 * specific one matched, as get_maintainer.pl's output does.
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
