/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_CLI_H
#define GFPAUDIT_CLI_H

#include "analyzer/analyzer.h"
#include "lib/util.h"

/*
 * One file per subcommand (cli/cmd_NAME.c), each defining cmd_NAME() and
 * its usage text; cli/gfpaudit.c holds the one dispatch table.
 */
struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	const char *usage; /* full text for `gfpaudit help NAME` */
};

extern const struct cmd commands[];
const struct cmd *find_cmd(const char *name);

#define DECLARE_CMD(n)                                                      \
	int cmd_##n(int argc, char **argv);                                 \
	extern const char usage_##n[]

DECLARE_CMD(scan);
DECLARE_CMD(query);
DECLARE_CMD(report);
DECLARE_CMD(patch);
DECLARE_CMD(validate);
DECLARE_CMD(simulate);
DECLARE_CMD(fragstat);
DECLARE_CMD(check);
DECLARE_CMD(merge);
DECLARE_CMD(rules);
DECLARE_CMD(help);

/* Prints "gfpaudit NAME: not built yet (issue N)" and returns 2. */
int cmd_not_built(const char *name, int issue);

/* Usage error: "gfpaudit NAME: MSG" plus a hint, returns 2. */
int usage_error(const char *name, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * getopt_long() returned '?' (opterr is 0: getopt prints nothing):
 * "gfpaudit NAME: unknown or incomplete option 'ARG'" naming
 * argv[optind - 1], and EXIT_USAGE.
 */
int bad_option(const char *name, char **argv);

/*
 * 0 when ARCH is a kernel arch gfpaudit has a target for (lib/karch.h;
 * with ALIASES, kbuild's ARCH aliases too), else one line "gfpaudit
 * NAME: unknown arch 'ARCH' (known: ...)" and EXIT_USAGE: an arch
 * nobody can parse for would only fail later, file by file.
 */
int arch_error(const char *name, const char *arch, int aliases);

/*
 * The exit code of an analyzer stage's outcome (enum analyzer_status):
 * stages say what happened, the command says how the process ends.
 */
static inline int analyzer_exit(int status)
{
	switch (status) {
	case ANALYZER_OK:
		return EXIT_OK;
	case ANALYZER_BAD_INPUT:
		return EXIT_USAGE;
	default:
		return EXIT_INTERNAL;
	}
}

#endif
