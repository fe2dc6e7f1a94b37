/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_PATCHES_SUBSYS_H
#define GFPAUDIT_PATCHES_SUBSYS_H

/*
 * Which subsystem a file belongs to, for splitting a series, and the
 * subject prefix that subsystem uses.
 */

/* The directory that names path's subsystem ("drivers/gpu/drm/i915"). */
char *subsys_key(const char *path);

/* The conventional prefix for a key, from a table ("drm/i915"). */
char *subsys_default_prefix(const char *key);

/*
 * The prefix most used by the subjects in log (one per line, as from
 * `git log --format=%s`), or NULL when none has a "prefix: " form.
 * Pure, for tests.
 */
char *subsys_prefix_from_log(const char *log);

/*
 * The prefix for key in tree: from the tree's own git history of that
 * directory when the tree is a git checkout, else the table.
 */
char *subsys_prefix(const char *tree, int tree_is_git, const char *key);

#endif
