// SPDX-License-Identifier: GPL-2.0
#include "cli/cli.h"

const char usage_simulate[] = "usage: gfpaudit simulate ... (not built yet, issue 8)\n";

int cmd_simulate(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cmd_not_built("simulate", 8);
}
