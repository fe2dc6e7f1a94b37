/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_PATCHES_PLAN_H
#define GFPAUDIT_PATCHES_PLAN_H

#include "patches/edit.h"
#include "rules/rule.h"

#include <sqlite3.h>

/* The edits a rule makes to one file. */
struct file_plan {
	char *path;
	struct edit *e;
	int n;
	int removes_definition; /* holds a #define or table removal */
	char *subsys;		/* subsys_key() or the split's group */
	int group;		/* index into plan.groups */
};

struct plan_group {
	char *key;    /* subsystem key, file path, or "all" */
	char *prefix; /* subject prefix */
	int last;     /* the definition-removal group goes last */
};

enum split_mode { SPLIT_SUBSYSTEM, SPLIT_FILE, SPLIT_ONE };

struct plan {
	struct file_plan *files;
	int nfiles;
	struct plan_group *groups;
	int ngroups;
	/* Statistics for the cover letter. */
	int uses, definitions, tables, via_param, skipped;
	int refused;	/* edits whose hunk was not the planned change */
	char **removed; /* flags whose #define is removed */
	int nremoved;
	char **pool; /* strings the edits point at */
	int npool;
};

/*
 * Build the edits for rule r from the database.  prefer_param replaces by
 * the enclosing function's gfp_t parameter where sites.gfp_param names
 * one.  Returns 0, or -1 with the error printed.
 */
int plan_build(sqlite3 *db, const struct rule *r, int prefer_param,
	       struct plan *p);

/* Assign files to groups and name each group's subject prefix. */
void plan_group(struct plan *p, enum split_mode mode, const char *tree,
		int tree_is_git);

void plan_free(struct plan *p);

#endif
