// SPDX-License-Identifier: GPL-2.0
#include "cli/cli.h"
#include "lib/util.h"

#include <stdio.h>

const char usage_help[] =
	"usage: gfpaudit help [COMMAND]\n"
	"\n"
	"Without COMMAND, list the commands; with it, print its usage.\n";

static const char exit_codes[] =
	"\nexit codes: 0 success, 1 findings-policy failure (check, "
	"validate),\n            2 usage or input error, 3 internal error,\n"
	"            4 validate: nothing failed, a check was inconclusive\n";

int cmd_help(int argc, char **argv)
{
	const struct cmd *c;

	if (argc >= 2) {
		c = find_cmd(argv[1]);
		if (!c)
			return usage_error("help", "no command '%s'", argv[1]);
		fputs(c->usage, stdout);
		return EXIT_OK;
	}
	printf("usage: gfpaudit COMMAND [ARGS]\n\ncommands:\n");
	for (c = commands; c->name; c++)
		printf("  %-10s %s\n", c->name, c->summary);
	printf("\n'gfpaudit help COMMAND' or 'gfpaudit COMMAND --help' "
	       "shows a command's usage.\n");
	fputs(exit_codes, stdout);
	return EXIT_OK;
}
