// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the query command's argument handling.  The input is
 * split at newlines into argv for `gfpaudit query`; the database is a
 * small one made once.  Any crash, sanitizer report or write to the
 * database (checked after each run) is a bug.
 */
#include "cli/cli.h"
#include "db/db.h"
#include "lib/util.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dbpath[] = "/tmp/gfpaudit-fuzz-query.XXXXXX";
static long long rows_before;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	sqlite3 *db;
	int fd = mkstemp(dbpath);

	(void)argc;
	(void)argv;
	close(fd);
	unlink(dbpath);
	db = db_open(dbpath, DB_READWRITE);
	if (!db)
		abort();
	db_exec(db, "INSERT INTO runs(command, tree, started_at) VALUES "
		    "('scan', '/t', 'x');"
		    "INSERT INTO files(path, hash, size, parse_mode) VALUES "
		    "('a.c', 'h', 1, 'lexical');"
		    "INSERT INTO flag_uses(file_id, path, line, col, flag, "
		    "context) VALUES (1, 'a.c', 1, 1, 'GFP_TEMPORARY', 'other')");
	rows_before = db_scalar(db, "SELECT count(*) FROM flag_uses", -1);
	db_close(db);
	/* Silence the command's output; errors still go to stderr. */
	if (!freopen("/dev/null", "w", stdout))
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = xmalloc(size + 1), *p, *save = NULL;
	char *argv[64];
	int argc = 0;
	sqlite3 *db;

	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[argc++] = "query";
	argv[argc++] = "--db";
	argv[argc++] = dbpath;
	for (p = strtok_r(buf, "\n", &save); p && argc < 63;
	     p = strtok_r(NULL, "\n", &save))
		argv[argc++] = p;
	argv[argc] = NULL;
	cmd_query(argc, argv);
	free(buf);
	db = db_open(dbpath, DB_READONLY);
	if (!db || db_scalar(db, "SELECT count(*) FROM flag_uses", -1) !=
			   rows_before)
		abort();
	db_close(db);
	return 0;
}
