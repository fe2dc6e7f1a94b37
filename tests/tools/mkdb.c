// SPDX-License-Identifier: GPL-2.0
/*
 * mkdb DB [VERSION]: create (or migrate) DB with db_open(); with VERSION,
 * create it at that older schema version instead, for migration tests.
 */
#include "db/db.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	sqlite3 *db;
	int v, i;

	if (argc < 2)
		die(EXIT_USAGE, "usage: mkdb DB [VERSION]");
	if (argc == 2) {
		db = db_open(argv[1], DB_READWRITE);
		if (!db)
			return EXIT_USAGE;
		db_close(db);
		return 0;
	}
	v = atoi(argv[2]);
	if (v < 1 || v > db_schema_version())
		die(EXIT_USAGE, "mkdb: no schema version %d", v);
	if (sqlite3_open(argv[1], &db) != SQLITE_OK)
		die(EXIT_USAGE, "mkdb: cannot open %s", argv[1]);
	db_exec(db, "CREATE TABLE meta (key TEXT PRIMARY KEY, "
		    "value TEXT NOT NULL)");
	for (i = 0; i < v; i++)
		if (db_exec(db, db_migrations[i]))
			return EXIT_INTERNAL;
	db_meta_set(db, "app", DB_APP_ID);
	db_meta_set(db, "schema_version", argv[2]);
	sqlite3_close(db);
	return 0;
}
