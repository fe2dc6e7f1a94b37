// SPDX-License-Identifier: GPL-2.0
/*
 * The one dispatch table.  A new subcommand is a new cli/cmd_NAME.c plus
 * one line here and one DECLARE_CMD in cli.h.
 */
#include "cli/cli.h"
#include "lib/karch.h"
#include "lib/util.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const struct cmd commands[] = {
	{ "scan", cmd_scan, "scan a kernel tree into the findings database",
	  usage_scan },
	{ "query", cmd_query, "run read-only SQL or a canned query",
	  usage_query },
	{ "report", cmd_report, "write a report (md, html, sarif, gcc)",
	  usage_report },
	{ "patch", cmd_patch, "write a git am-able patch series for a rule",
	  usage_patch },
	{ "validate", cmd_validate, "check that a patch series is sound",
	  usage_validate },
	{ "simulate", cmd_simulate, "run the reference buddy allocator",
	  usage_simulate },
	{ "fragstat", cmd_fragstat, "fragmentation indices of a real system",
	  usage_fragstat },
	{ "check", cmd_check, "kbuild CHECK= drop-in for sparse",
	  usage_check },
	{ "merge", cmd_merge, "merge shard databases", usage_merge },
	{ "rules", cmd_rules, "list the rules", usage_rules },
	{ "help", cmd_help, "show help for a command", usage_help },
	{ NULL, NULL, NULL, NULL },
};

const struct cmd *find_cmd(const char *name)
{
	const struct cmd *c;

	for (c = commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

int cmd_not_built(const char *name, int issue)
{
	error_msg("%s: not built yet (issue %d)", name, issue);
	return EXIT_USAGE;
}

int usage_error(const char *name, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s %s: ", progname, name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see '%s help %s')\n", progname, name);
	return EXIT_USAGE;
}

int bad_option(const char *name, char **argv)
{
	return usage_error(name, "unknown or incomplete option '%s'",
			   argv[optind - 1]);
}


int arch_error(const char *name, const char *arch, int aliases)
{
	if (aliases ? karch_known_alias(arch) : karch_known(arch))
		return 0;
	fprintf(stderr, "%s %s: unknown arch '%s' (known: %s)\n", progname,
		name, arch, karch_list(aliases));
	return EXIT_USAGE;
}
