/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_MAINTAINERS_H
#define GFPAUDIT_MAINTAINERS_H

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
struct maintainers;

/* Parse the text of a MAINTAINERS file; never fails (may be empty). */
struct maintainers *maintainers_parse(const char *buf, size_t len);
void maintainers_free(struct maintainers *m);

/* Number of sections with at least one F: pattern. */
size_t maintainers_count(const struct maintainers *m);

/*
 * Title of the most precise section covering PATH (relative to the tree
 * root), or NULL when none does.  The string belongs to M.
 */
const char *maintainers_lookup(const struct maintainers *m, const char *path);

#endif
