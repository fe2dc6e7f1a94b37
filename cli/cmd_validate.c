// SPDX-License-Identifier: GPL-2.0
#include "cli/cli.h"

const char usage_validate[] = "usage: gfpaudit validate ... (not built yet, issue 5)\n";

int cmd_validate(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cmd_not_built("validate", 5);
}
