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
	"                      [--author 'NAME <EMAIL>'] [--force] TREE\n"
	"\n"
	"Write the patch series of rule NAME for the scanned TREE:\n"
	"DIR/0000-cover-letter.patch and one numbered patch per subsystem\n"
	"(or file, or one for all), which `git am` applies to TREE, plus the\n"
	"rule's companion .cocci.  TREE is never written.\n"
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
	"  --force             replace an existing series in DIR\n";

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

static char *join_args(int argc, char **argv)
{
	struct strbuf sb = STRBUF_INIT;
	int i;

	sb_adds(&sb, "gfpaudit");
	for (i = 0; i < argc; i++)
		sb_addf(&sb, " %s", argv[i]);
	return sb_detach(&sb);
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
		rc = series_write(db, r, &plan, o);
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
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct series_opts o = {0};
	const char *dbpath = "gfpaudit.db", *rule = NULL, *out = NULL;
	char *rdir = NULL, *defout = NULL, *cmdline;
	enum split_mode split = SPLIT_SUBSYSTEM;
	int prefer = 0, c, rc;

	cmdline = join_args(argc, argv);
	optind = 1;
	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
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
	o.cmdline = cmdline;
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
	free(cmdline);
	return rc;
}
