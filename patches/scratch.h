/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_PATCHES_SCRATCH_H
#define GFPAUDIT_PATCHES_SCRATCH_H

#include "lib/util.h"

/*
 * A scratch git repository holding copies of only the files a series
 * touches.  The user's tree is read, never written: all edits, commits,
 * `git format-patch` and `git am` happen here.
 */
struct scratch {
	char *dir;
	char **envp; /* environ minus GIT_*, plus the identity */
};

/*
 * Create a scratch repository in a new directory under parent.  name and
 * email are the identity of its commits.  Returns 0 or -1 (printed).
 */
int scratch_init(struct scratch *s, const char *parent, const char *name,
		 const char *email);

/* Run git in the scratch repo; argv is NULL-ended, without "git". */
int scratch_git(struct scratch *s, struct strbuf *out, struct strbuf *err,
		const char *const *args);

/* The same with in (len bytes) as git's standard input. */
int scratch_git_input(struct scratch *s, const char *in, size_t len,
		      const char *const *args);

/* Copy TREE/path into the scratch repo (mode kept).  0 or -1 (printed). */
int scratch_copy_in(struct scratch *s, const char *tree, const char *path);

/* Write data as the scratch copy of path. */
int scratch_write(struct scratch *s, const char *path, const char *data,
		  size_t len);

/* Remove the directory and free. */
void scratch_destroy(struct scratch *s, int keep);

/* mkdir -p; 0 or -1 with errno. */
int mkdir_p(const char *dir);

/* rm -rf without a shell; 0 or -1. */
int remove_tree(const char *dir);

/*
 * The identity for commits: "Name <email>" in spec if given, else the
 * tree's git config, else gfpaudit's own.  Malloc'd into name and email.
 */
void scratch_identity(const char *spec, const char *tree, char **name,
		      char **email);

#endif
