/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_DB_SITES_H
#define GFPAUDIT_DB_SITES_H

/*
 * SQL made from the `sites` column list (db/sites_cols.h), so that the
 * statement and the binds that follow it cannot disagree.
 */

/*
 * The scan's INSERT of one site: the columns a scan writes (all but the
 * SV_NONE ones), in list order, as parameters 1..N; a row already there
 * by (path, line, col, api) is left.  malloc'd.
 */
char *db_sites_insert_sql(void);

#endif
