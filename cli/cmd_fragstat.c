// SPDX-License-Identifier: GPL-2.0
#include "cli/cli.h"

const char usage_fragstat[] = "usage: gfpaudit fragstat ... (not built yet, issue 8)\n";

int cmd_fragstat(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cmd_not_built("fragstat", 8);
}
