// SPDX-License-Identifier: GPL-2.0
#include "cli/cli.h"

const char usage_merge[] = "usage: gfpaudit merge ... (not built yet, issue 6)\n";

int cmd_merge(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cmd_not_built("merge", 6);
}
