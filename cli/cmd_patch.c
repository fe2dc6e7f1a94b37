// SPDX-License-Identifier: GPL-2.0
#include "cli/cli.h"

const char usage_patch[] = "usage: gfpaudit patch ... (not built yet, issue 5)\n";

int cmd_patch(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cmd_not_built("patch", 5);
}
