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

/* How many of the files' latest subjects subsys_prefix() reads. */
#define SUBSYS_LOG_SUBJECTS "20"

/*
 * The prefix for the group of files paths[0..npaths) in tree, whose
 * subsystem is key: the most common prefix of the last
 * SUBSYS_LOG_SUBJECTS subjects of their own `git log` when the tree is a
 * git checkout and one has a prefix, else subsys_default_prefix(key).
 */
char *subsys_prefix(const char *tree, int tree_is_git, const char *key,
		    const char *const *paths, int npaths);

#endif
