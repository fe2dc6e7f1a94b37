// SPDX-License-Identifier: GPL-2.0
#include "cli/cli.h"

const char usage_scan[] = "usage: gfpaudit scan ... (not built yet, issue 3)\n";

int cmd_scan(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cmd_not_built("scan", 3);
}
