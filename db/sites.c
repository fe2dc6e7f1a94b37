// SPDX-License-Identifier: GPL-2.0
/* The sites INSERT, from the column list (see sites.h). */
#include "db/sites.h"
#include "lib/util.h"

char *db_sites_insert_sql(void)
{
	struct strbuf cols = STRBUF_INIT, vals = STRBUF_INIT;
	char *sql;

#define SV_FILE 1
#define SV_STR(field) 1
#define SV_TEXT(expr) 1
#define SV_INT(expr) 1
#define SV_INT_IF(known, expr) 1
#define SV_NONE 0
#define SITE_COL(name, type, decl, value, rule)                          \
	if (value) {                                                      \
		sb_addf(&cols, "%s%s", cols.len ? ", " : "", #name);      \
		sb_adds(&vals, vals.len ? ", ?" : "?");                   \
	}
#include "db/sites_cols.h"
	sql = xasprintf("INSERT OR IGNORE INTO sites(%s) VALUES (%s)",
			cols.buf, vals.buf);
	sb_release(&cols);
	sb_release(&vals);
	return sql;
}
