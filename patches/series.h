/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_PATCHES_SERIES_H
#define GFPAUDIT_PATCHES_SERIES_H

#include "patches/maintainers.h"
#include "patches/plan.h"

#include <sqlite3.h>

enum maint_mode {
	MAINT_AUTO,    /* get_maintainer.pl when usable, else MAINTAINERS */
	MAINT_SCRIPT,  /* the tree's get_maintainer.pl only */
	MAINT_BUILTIN, /* gfpaudit's MAINTAINERS parser */
	MAINT_NONE,
};

struct series_opts {
	const char *tree;
	const char *out;       /* output directory (created) */
	const char *author;    /* "Name <email>" or NULL */
	const char *rules_dir; /* for the companion .cocci */
	enum maint_mode maint;
	int keep_work;
	int force; /* replace an existing series in out */
	/* The mail: [RFC SUBJECT_PREFIX vREROLL n/m], more To:/Cc:. */
	const char *subject_prefix; /* NULL: PATCH */
	int reroll;		    /* 0: none */
	int rfc;
	struct addr_list to, cc;
};

/* What series_write() tells its caller, which picks the exit code. */
enum series_status {
	SERIES_OK = 0,
	SERIES_BAD_INPUT = -1, /* stale database, unusable out */
	SERIES_FAILED = -2,    /* git, database or other internal error */
};

/* What series_write() did, for the command to print. */
struct series_stats {
	int nothing;	/* no edit took: no series written, not an error */
	char **files;	/* the mails written, cover letter first */
	size_t nfiles;
	char *kept;	/* the scratch repository, when kept (keep_work) */
};

/*
 * Write the series for plan p of rule r: scratch repo, one commit per
 * group, git format-patch with a cover letter when there is more than
 * one patch, To:/Cc: and base-commit: filled in, the
 * companion .cocci copied beside, one `patches` row per file.  Returns an
 * enum series_status (after a one-line error when not SERIES_OK) and
 * fills *ST; free it with series_stats_free().
 */
int series_write(sqlite3 *db, const struct rule *r, struct plan *p,
		 const struct series_opts *o, struct series_stats *st);
void series_stats_free(struct series_stats *st);

#endif
