// SPDX-License-Identifier: GPL-2.0
#include "cli/cli.h"

const char usage_check[] = "usage: gfpaudit check ... (not built yet, issue 6)\n";

int cmd_check(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cmd_not_built("check", 6);
}
