// SPDX-License-Identifier: GPL-2.0
/*
 * gfpaudit patch: write a git am-able series for a rule from the
 * database.  The tree is only read; everything is built in a scratch
 * repository under the output directory.
 */
#include "cli/cli.h"
#include "db/db.h"
#include "patches/plan.h"
#include "patches/series.h"
#include "rules/rule.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

const char usage_patch[] =
	"usage: gfpaudit patch --db FILE --rule NAME [--out DIR]\n"
	"                      [--split file|subsystem|one] "
	"[--prefer-gfp-param]\n"
	"                      [--maintainers auto|script|builtin|none]\n"
	"                      [--author 'NAME <EMAIL>'] [--force]\n"
	"                      [--subject-prefix STR] [-v N] [--rfc]\n"
	"                      [--to ADDR]... [--cc ADDR]... TREE\n"
	"\n"
	"Write the patch series of rule NAME for the scanned TREE, which\n"
	"`git am` applies to TREE: one numbered patch per subsystem (or\n"
	"file, or one for all), DIR/0000-cover-letter.patch when there is\n"
	"more than one, and the rule's companion .cocci.  Each message ends\n"
	"with base-commit: when TREE is a git checkout whose HEAD holds the\n"
	"touched files as they are.  TREE is never written.\n"
	"\n"
	"  --db FILE           database of a scan of TREE (default "
	"./gfpaudit.db)\n"
	"  --rule NAME         a rule of `gfpaudit rules` whose action edits\n"
	"  --out DIR           output directory (default ./patches-NAME)\n"
	"  --split MODE        subsystem (default), file or one\n"
	"  --prefer-gfp-param  pass the enclosing function's gfp_t parameter\n"
	"                      where the scan found one, instead of "
	"GFP_KERNEL\n"
	"  --maintainers MODE  To:/Cc: from scripts/get_maintainer.pl "
	"(script),\n"
	"                      gfpaudit's MAINTAINERS parser (builtin), auto\n"
	"                      (script when usable, default) or none\n"
	"  --author ID         Signed-off-by and author (default: git config)\n"
	"  --rules DIR         rule directory\n"
	"  --keep-work         keep the scratch repository (for debugging)\n"
	"  --force             replace an existing series in DIR\n"
	"  --subject-prefix STR\n"
	"                      [STR n/m] instead of [PATCH n/m]\n"
	"  -v, --reroll-count N\n"
	"                      version N of the series: [PATCH vN n/m]\n"
	"  --rfc               [RFC PATCH n/m]\n"
	"  --to ADDR           also To: ADDR on every message (repeatable)\n"
	"  --cc ADDR           also Cc: ADDR on every message (repeatable)\n";

static int parse_split(const char *s, enum split_mode *m)
{
	if (!strcmp(s, "subsystem"))
		*m = SPLIT_SUBSYSTEM;
	else if (!strcmp(s, "file"))
		*m = SPLIT_FILE;
	else if (!strcmp(s, "one"))
		*m = SPLIT_ONE;
	else
		return -1;
	return 0;
}

static int parse_maint(const char *s, enum maint_mode *m)
{
	static const char *const names[] = {"auto", "script", "builtin", "none",
					    NULL};
	int i;

	for (i = 0; names[i]; i++)
		if (!strcmp(names[i], s)) {
			*m = (enum maint_mode)i;
			return 0;
		}
	return -1;
}

/* -v N: what a maintainer reads as the series' version. */
static int parse_reroll(const char *s, int *n)
{
	char *end;
	long v;

	if (*s < '1' || *s > '9')
		return -1;
	v = strtol(s, &end, 10);
	if (*end || v > 999)
		return -1;
	*n = (int)v;
	return 0;
}

/*
 * Text inside "[...]" of a subject: printable, no bracket.  Error
 * messages do not echo these values: one could hold a line break.
 */
static int check_subject_prefix(const char *s)
{
	const char *c;

	if (!*s || strlen(s) > 64)
		return -1;
	for (c = s; *c; c++)
		if (*c < ' ' || *c > '~' || *c == '[' || *c == ']')
			return -1;
	return 0;
}

/*
 * One address of --to/--cc, "addr@host" or "Name <addr@host>": a comma
 * would be two, a line break another header.
 */
static int check_address(const char *s)
{
	const char *at = strchr(s, '@'), *c;

	if (!at || at == s || !at[1])
		return -1;
	for (c = s; *c; c++)
		if ((unsigned char)*c < ' ' || *c == ',' || *c == 0x7f)
			return -1;
	if (strchr(s, '<') && (!strchr(s, '>') || strchr(s, '>') < at))
		return -1;
	return 0;
}

/*
 * What series_write() did, as the command says it: the mails on stdout
 * (a script's input), notes on stderr; and the status as an exit code.
 */
static int print_series(const struct rule *r, const struct series_opts *o,
			int status, const struct series_stats *st)
{
	size_t i;

	if (st->nothing)
		fprintf(stderr, "%s patch: rule %s: nothing to change in %s; "
			"no series written\n", progname, r->name, o->tree);
	for (i = 0; i < st->nfiles; i++)
		printf("%s\n", st->files[i]);
	if (st->kept)
		fprintf(stderr, "%s: scratch repository kept in %s\n",
			progname, st->kept);
	switch (status) {
	case SERIES_OK:
		return EXIT_OK;
	case SERIES_BAD_INPUT:
		return EXIT_USAGE;
	default:
		return EXIT_INTERNAL;
	}
}

static int run_patch(const char *dbpath, const char *rule_name,
		     const char *rdir, int prefer, enum split_mode split,
		     struct series_opts *o)
{
	struct rule *rules, *r;
	struct plan plan;
	struct stat st;
	int n, rc;
	sqlite3 *db;
	struct series_stats ss;
	int nothing = 0;

	if (stat(o->tree, &st) || !S_ISDIR(st.st_mode))
		return usage_error("patch", "%s: not a directory", o->tree);
	if (access(dbpath, R_OK))
		return usage_error("patch",
				   "%s: no such database (run "
				   "'gfpaudit scan' first)",
				   dbpath);
	rules_load_dir(rdir, &rules, &n);
	r = rules_find(rules, n, rule_name);
	if (!r) {
		rules_free(rules, n);
		return usage_error("patch", "no rule '%s' in %s", rule_name,
				   rdir);
	}
	if (prefer && !r->prefer_param)
		warn_msg("rule %s does not use --prefer-gfp-param", r->name);
	db = db_open(dbpath, DB_READWRITE);
	if (!db) {
		rules_free(rules, n);
		return EXIT_USAGE;
	}
	if (db_scalar(db, "SELECT count(*) FROM runs", 0) == 0)
		warn_msg("%s: no scan recorded; is this the right database?",
			 dbpath);
	rc = plan_build(db, r, prefer, &plan) ? EXIT_USAGE : 0;
	/* Not an error: the tree is already what the rule wants. */
	if (!rc && !plan.nfiles) {
		fprintf(stderr, "%s patch: rule %s: nothing to change (%s has "
			"no matching rows); no series written\n", progname,
			r->name, dbpath);
		nothing = 1;
	}
	if (!rc && !nothing) {
		int git = 0;
		char *dotgit = xasprintf("%s/.git", o->tree);

		git = stat(dotgit, &st) == 0;
		free(dotgit);
		plan_group(&plan, split, o->tree, git);
		rc = print_series(r, o, series_write(db, r, &plan, o, &ss),
				  &ss);
		series_stats_free(&ss);
	}
	plan_free(&plan);
	db_close(db);
	rules_free(rules, n);
	return rc;
}

int cmd_patch(int argc, char **argv)
{
	static const struct option opts[] = {
		{"db", required_argument, NULL, 'd'},
		{"rule", required_argument, NULL, 'r'},
		{"out", required_argument, NULL, 'o'},
		{"split", required_argument, NULL, 's'},
		{"prefer-gfp-param", no_argument, NULL, 'p'},
		{"maintainers", required_argument, NULL, 'm'},
		{"author", required_argument, NULL, 'a'},
		{"rules", required_argument, NULL, 'R'},
		{"keep-work", no_argument, NULL, 'k'},
		{"force", no_argument, NULL, 'f'},
		{"subject-prefix", required_argument, NULL, 'P'},
		{"reroll-count", required_argument, NULL, 'v'},
		{"rfc", no_argument, NULL, 'C'},
		{"to", required_argument, NULL, 't'},
		{"cc", required_argument, NULL, 'c'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct series_opts o = {0};
	const char *dbpath = "gfpaudit.db", *rule = NULL, *out = NULL;
	char *rdir = NULL, *defout = NULL;
	enum split_mode split = SPLIT_SUBSYSTEM;
	int prefer = 0, c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+v:", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			dbpath = optarg;
			break;
		case 'r':
			rule = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 's':
			if (parse_split(optarg, &split)) {
				rc = usage_error("patch", "--split: want file, "
							  "subsystem or one");
				goto out;
			}
			break;
		case 'p':
			prefer = 1;
			break;
		case 'm':
			if (parse_maint(optarg, &o.maint)) {
				rc = usage_error(
					"patch",
					"--maintainers: want "
					"auto, script, builtin or none");
				goto out;
			}
			break;
		case 'a':
			if (!strchr(optarg, '<') || !strchr(optarg, '>')) {
				rc = usage_error("patch", "--author: want "
							  "'NAME <EMAIL>'");
				goto out;
			}
			o.author = optarg;
			break;
		case 'R':
			free(rdir);
			rdir = xstrdup(optarg);
			break;
		case 'k':
			o.keep_work = 1;
			break;
		case 'f':
			o.force = 1;
			break;
		case 'P':
			if (check_subject_prefix(optarg)) {
				rc = usage_error("patch",
						 "--subject-prefix: want "
						 "printable text without "
						 "brackets");
				goto out;
			}
			o.subject_prefix = optarg;
			break;
		case 'v':
			if (parse_reroll(optarg, &o.reroll)) {
				rc = usage_error("patch",
						 "-v/--reroll-count: want a "
						 "version from 1 to 999");
				goto out;
			}
			break;
		case 'C':
			o.rfc = 1;
			break;
		case 't':
		case 'c':
			if (check_address(optarg)) {
				rc = usage_error("patch",
						 "--%s: want one address, "
						 "addr@host or 'Name "
						 "<addr@host>'",
						 c == 't' ? "to" : "cc");
				goto out;
			}
			addr_add(c == 't' ? &o.to : &o.cc, optarg);
			break;
		case 'h':
			fputs(usage_patch, stdout);
			rc = EXIT_OK;
			goto out;
		default:
			rc = bad_option("patch", argv);
			goto out;
		}
	}
	if (!rule) {
		rc = usage_error("patch", "--rule NAME is required");
		goto out;
	}
	if (optind + 1 != argc) {
		rc = usage_error("patch", "want exactly one TREE");
		goto out;
	}
	if (!rdir)
		rdir = rule_default_dir();
	if (!out)
		out = defout = xasprintf("patches-%s", rule);
	o.tree = argv[optind];
	o.out = out;
	o.rules_dir = rdir;
	if (o.maint == MAINT_SCRIPT) {
		char *s = xasprintf("%s/scripts/get_maintainer.pl", o.tree);
		struct stat st;

		if (stat(s, &st)) {
			free(s);
			rc = usage_error("patch",
					 "--maintainers script: %s has "
					 "no scripts/get_maintainer.pl",
					 o.tree);
			goto out;
		}
		free(s);
	}
	rc = run_patch(dbpath, rule, rdir, prefer, split, &o);
out:
	free(rdir);
	free(defout);
	addr_list_free(&o.to);
	addr_list_free(&o.cc);
	return rc;
}
