// SPDX-License-Identifier: GPL-2.0
/*
 * gfpaudit: who uses a GFP/slab mobility flag, does it do anything, and
 * what happens if we change it.  This file is only the dispatcher.
 */
#include "cli/cli.h"
#include "db/db.h"
#include "lib/datadir.h"
#include "lib/util.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static int wants_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return 0;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct cmd *c;

	if (argc < 2) {
		cmd_help(1, argv);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return cmd_help(1, argv);
	if (!strcmp(argv[1], "--version")) {
		const char *d = gfp_datadir("allocators.txt");

		printf("gfpaudit %s\n", GFPAUDIT_VERSION);
		printf("data: %s\n", d ? d : "(none found)");
		return EXIT_OK;
	}
	c = find_cmd(argv[1]);
	if (!c) {
		error_msg("'%s' is not a gfpaudit command; see 'gfpaudit help'",
			  argv[1]);
		return EXIT_USAGE;
	}
	db_setup();
	cmdname = c->name;
	opterr = 0; /* bad_option() names the culprit, in one line */
	/* `check` gets the compiler's argv verbatim from kbuild. */
	if (strcmp(c->name, "check") && wants_help(argc - 1, argv + 1)) {
		fputs(c->usage, stdout);
		return EXIT_OK;
	}
	return c->fn(argc - 1, argv + 1);
}
