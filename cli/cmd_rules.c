// SPDX-License-Identifier: GPL-2.0
/*
 * gfpaudit rules: list the rules, check rule files, and run the report
 * rules over a database (findings printed gcc-style and stored).
 */
#include "analyzer/tables.h"
#include "cli/cli.h"
#include "db/db.h"
#include "lib/ktree.h"
#include "rules/run.h"
#include "rules/rule.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char usage_rules[] =
	"usage: gfpaudit rules [--rules DIR]\n"
	"       gfpaudit rules --check FILE...\n"
	"       gfpaudit rules --run [--db FILE] [--rules DIR] [NAME...]\n"
	"\n"
	"List the rules (name, kernel versions, action, description), check\n"
	"rule files (errors name the file and line), or run rules over the\n"
	"findings database: each hit is printed as\n"
	"  path:line:col: severity: message [rule]\n"
	"and stored in the findings table.  Format: docs/rules.md.\n"
	"\n"
	"  --rules DIR  rule directory (default: the data directory,\n"
	"               $GFPAUDIT_DATADIR; gfpaudit --version names it)\n"
	"  --check      parse FILE... and report the first error of each\n"
	"  --run        evaluate rules NAME... (default: all that apply to\n"
	"               the scanned kernel version)\n"
	"  --db FILE    the database (default ./gfpaudit.db)\n";

static int list_rules(const char *dir)
{
	struct rule *rules;
	int n, bad, i;
	size_t wn = 4, wv = 8, wa = 6;

	bad = rules_load_dir(dir, &rules, &n);
	for (i = 0; i < n; i++) {
		if (strlen(rules[i].name) > wn)
			wn = strlen(rules[i].name);
		if (strlen(rules[i].versions) > wv)
			wv = strlen(rules[i].versions);
		if (strlen(rule_action_name(rules[i].action)) > wa)
			wa = strlen(rule_action_name(rules[i].action));
	}
	printf("%-*s  %-*s  %-*s  %s\n", (int)wn, "name", (int)wv, "versions",
	       (int)wa, "action", "description");
	for (i = 0; i < n; i++)
		printf("%-*s  %-*s  %-*s  %s\n", (int)wn, rules[i].name,
		       (int)wv, rules[i].versions, (int)wa,
		       rule_action_name(rules[i].action), rules[i].description);
	rules_free(rules, n);
	return bad ? EXIT_USAGE : EXIT_OK;
}

static int check_files(int argc, char **argv)
{
	int i, bad = 0;

	if (!argc)
		return usage_error("rules", "--check needs FILE...");
	for (i = 0; i < argc; i++) {
		struct rule r;

		if (rule_load_file(argv[i], &r)) {
			bad++;
			continue;
		}
		printf("%s: ok (%s, %d match section%s)\n", argv[i], r.name,
		       r.nmatches, r.nmatches == 1 ? "" : "s");
		rule_free(&r);
	}
	return bad ? EXIT_USAGE : EXIT_OK;
}

static void print_hits(const struct rules_outcome *o)
{
	int i;

	for (i = 0; i < o->n; i++) {
		const struct rule_hit *h = &o->hits[i];

		printf("%s:%d:%d: %s: %s [%s]\n", h->path, h->line, h->col,
		       h->match->severity, h->message, o->rule->name);
		if (h->suggestion)
			printf("%s:%d:%d: note: suggestion: %s\n", h->path,
			       h->line, h->col, h->suggestion);
	}
}

static int run_rules(const char *dir, const char *dbpath, int argc, char **argv)
{
	struct rules_run rr = { .keep_hits = 1 };
	const char *bad;
	int i, rc = EXIT_OK;
	sqlite3 *db;

	if (rules_run_load(&rr, dir, argv, argc, &bad)) {
		rules_run_free(&rr);
		return bad ? usage_error("rules", "no rule '%s' in %s", bad,
					 dir)
			   : EXIT_USAGE;
	}
	if (access(dbpath, R_OK)) {
		rules_run_free(&rr);
		return usage_error("rules",
				   "%s: no such database (run "
				   "'gfpaudit scan' first)",
				   dbpath);
	}
	db = db_open(dbpath, DB_READWRITE);
	if (!db) {
		rules_run_free(&rr);
		return EXIT_USAGE;
	}
	if (rules_run_db(&rr, db, argv, argc))
		rc = EXIT_INTERNAL;
	for (i = 0; i < rr.nout; i++) {
		const struct rules_outcome *o = &rr.out[i];

		if (o->skipped)
			fprintf(stderr, "%s: %s: skipped, kernel %s is not %s\n",
				progname, o->rule->name, rr.kernel,
				o->rule->versions);
		else if (o->n >= 0) {
			print_hits(o);
			fprintf(stderr, "%s: %s: %d finding%s\n", progname,
				o->rule->name, o->n, o->n == 1 ? "" : "s");
		}
	}
	db_close(db);
	rules_run_free(&rr);
	return rc;
}

int cmd_rules(int argc, char **argv)
{
	static const struct option opts[] = {
		{"rules", required_argument, NULL, 'r'},
		{"check", no_argument, NULL, 'c'},
		{"run", no_argument, NULL, 'x'},
		{"db", required_argument, NULL, 'd'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *dbpath = "gfpaudit.db";
	char *dir = NULL;
	int check = 0, run = 0, c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			free(dir);
			dir = xstrdup(optarg);
			break;
		case 'c':
			check = 1;
			break;
		case 'x':
			run = 1;
			break;
		case 'd':
			dbpath = optarg;
			break;
		case 'h':
			fputs(usage_rules, stdout);
			free(dir);
			return EXIT_OK;
		default:
			free(dir);
			return bad_option("rules", argv);
		}
	}
	if (check && run) {
		free(dir);
		return usage_error("rules", "--check and --run exclude each "
					    "other");
	}
	if (!dir) {
		/* rules_dir() said why there is none */
		if (!rules_dir())
			return EXIT_USAGE;
		dir = rule_default_dir();
	}
	if (check)
		rc = check_files(argc - optind, argv + optind);
	else if (run)
		rc = run_rules(dir, dbpath, argc - optind, argv + optind);
	else if (optind < argc)
		rc = usage_error("rules", "unexpected argument '%s'",
				 argv[optind]);
	else
		rc = list_rules(dir);
	free(dir);
	return rc;
}
