/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_LINKMEMO_H
#define GFPAUDIT_LINKMEMO_H

/*
 * A re-analysed file keeps its link answers when what it gives the link
 * steps did not change.
 *
 * The link steps (summaries.c and the classifiers' .link) read every
 * file's functions, facts, caches and some site columns, and write
 * answers back into the same rows.  A file that is analysed again gets
 * new rows without answers, and solving the whole tree again costs
 * seconds for an edit that changed no summary (a flag, a string, a
 * comment).  So the writer records a digest of what the file gives the
 * link steps (files.link_digest); when a file whose rows hold answers
 * (files.linked) is written again with the same digest, the tree's graph
 * is what it was, every answer in the tree stays right, and the file's
 * new rows take the answers of its old ones, row by row.  The link steps
 * then find every file linked and nothing to solve.
 */

#include "analyzer/fileproc.h"

#include <sqlite3.h>
#include <stdint.h>

/* The digest of R's rows as the writer writes them (before any link). */
uint64_t linkmemo_digest(const struct file_result *r);

/*
 * Before the writer deletes PATH's rows: when they hold answers and were
 * written with DIGEST, keep their answers aside and set *KEPT.  OLD is
 * the writer's prepared "SELECT id, link_digest, linked FROM files WHERE
 * path = ?".  Returns 0, or -1 on a database error.
 */
int linkmemo_save(sqlite3 *db, sqlite3_stmt *old, const char *path,
		  uint64_t digest, const struct file_result *r, int *kept);

/*
 * After R's new rows, file FID, are written with linked = 1 (*KEPT of
 * linkmemo_save()): give them the answers kept aside.  Rows that do not pair one for one (they always should, with
 * equal digests) leave the file unlinked, to be solved.  Returns 0, or -1
 * on a database error.
 */
int linkmemo_restore(sqlite3 *db, long long fid,
		     const struct file_result *r);

#endif
