/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_REPORTS_MAINTAINERS_H
#define GFPAUDIT_REPORTS_MAINTAINERS_H

#include <stddef.h>

/*
 * The subsystems of a kernel tree, from its MAINTAINERS file.
 *
 * Only what a report needs: each section's title and its F: (files) and
 * X: (excluded files) patterns.  A path belongs to the section whose F:
 * pattern matches it most precisely, with scripts/get_maintainer.pl's
 * rules: a pattern ending in '/' matches everything below that directory;
 * any other pattern matches files at its own depth ('*' and '?' are
 * wildcards, as get_maintainer.pl turns them into regex '.*' and '.'); a
 * pattern naming a directory without the trailing '/' is a directory
 * pattern.  Precision is the pattern's depth (its '/' count, plus one for
 * a file pattern), the order get_maintainer.pl lists sections in.
 * N: (regex) and K: (content) entries are not used.
 */
struct maint_index;

/* Parse the text of a MAINTAINERS file; never fails (may be empty). */
struct maint_index *maint_index_parse(const char *buf, size_t len);
void maint_index_free(struct maint_index *m);

/* Number of sections with at least one F: pattern. */
size_t maint_index_count(const struct maint_index *m);

/*
 * Title of the most precise section covering PATH (relative to the tree
 * root), or NULL when none does.  The string belongs to M.
 */
const char *maint_index_lookup(const struct maint_index *m, const char *path);

#endif
