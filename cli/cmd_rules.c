// SPDX-License-Identifier: GPL-2.0
#include "cli/cli.h"

const char usage_rules[] = "usage: gfpaudit rules ... (not built yet, issue 5)\n";

int cmd_rules(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cmd_not_built("rules", 5);
}
