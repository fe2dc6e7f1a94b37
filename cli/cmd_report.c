// SPDX-License-Identifier: GPL-2.0
#include "cli/cli.h"

const char usage_report[] = "usage: gfpaudit report ... (not built yet, issue 6)\n";

int cmd_report(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cmd_not_built("report", 6);
}
