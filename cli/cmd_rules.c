// SPDX-License-Identifier: GPL-2.0
/*
 * gfpaudit rules: list the rules, check rule files, and run the report
 * rules over a database (findings printed gcc-style and stored).
 */
#include "cli/cli.h"
#include "db/db.h"
#include "lib/ktree.h"
#include "rules/eval.h"
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
	"  --rules DIR  rule directory (default: $GFPAUDIT_RULES_DIR or "
	"rules/)\n"
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

/* Kernel version of the database's last run, for the rules' versions. */
static int db_kernel_version(sqlite3 *db, struct kversion *kv,
			     long long *run_id)
{
	sqlite3_stmt *st = db_prepare(
		db,
		"SELECT id, kernel_version FROM runs ORDER BY id DESC LIMIT 1");
	int rc = -1;

	*run_id = 0;
	if (!st)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW) {
		const unsigned char *v = sqlite3_column_text(st, 1);

		*run_id = sqlite3_column_int64(st, 0);
		if (v && !kversion_parse((const char *)v, kv))
			rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

static int run_one(sqlite3 *db, struct rule *r, long long run_id)
{
	struct rule_hit *hits;
	int n, i;

	n = rule_eval(db, r, &hits);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		printf("%s:%d:%d: %s: %s [%s]\n", hits[i].path, hits[i].line,
		       hits[i].col, hits[i].match->severity, hits[i].message,
		       r->name);
		if (hits[i].suggestion)
			printf("%s:%d:%d: note: suggestion: %s\n", hits[i].path,
			       hits[i].line, hits[i].col, hits[i].suggestion);
	}
	if (rule_store_findings(db, r, hits, n, run_id)) {
		rule_hits_free(hits, n);
		return -1;
	}
	rule_hits_free(hits, n);
	fprintf(stderr, "%s: %s: %d finding%s\n", progname, r->name, n,
		n == 1 ? "" : "s");
	return n;
}

static int run_rules(const char *dir, const char *dbpath, int argc, char **argv)
{
	struct rule *rules;
	struct kversion kv;
	long long run_id;
	int n, i, rc = EXIT_OK, have_kv;
	sqlite3 *db;

	if (rules_load_dir(dir, &rules, &n)) {
		rules_free(rules, n);
		return EXIT_USAGE;
	}
	for (i = 0; i < argc; i++)
		if (!rules_find(rules, n, argv[i])) {
			rules_free(rules, n);
			return usage_error("rules", "no rule '%s' in %s",
					   argv[i], dir);
		}
	if (access(dbpath, R_OK)) {
		rules_free(rules, n);
		return usage_error("rules",
				   "%s: no such database (run "
				   "'gfpaudit scan' first)",
				   dbpath);
	}
	db = db_open(dbpath, DB_READWRITE);
	if (!db) {
		rules_free(rules, n);
		return EXIT_USAGE;
	}
	have_kv = db_kernel_version(db, &kv, &run_id) == 0;
	for (i = 0; i < n && rc == EXIT_OK; i++) {
		struct rule *r = &rules[i];
		int named = 0, k;

		for (k = 0; k < argc; k++)
			named |= !strcmp(argv[k], r->name);
		if (argc && !named)
			continue;
		if (!r->nmatches)
			continue;
		if (have_kv && !rule_applies(r, &kv)) {
			fprintf(stderr,
				"%s: %s: skipped, kernel %s is not %s\n",
				progname, r->name, kv.text, r->versions);
			continue;
		}
		if (run_one(db, r, run_id) < 0)
			rc = EXIT_INTERNAL;
	}
	db_close(db);
	rules_free(rules, n);
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
			return usage_error("rules", "bad option");
		}
	}
	if (check && run) {
		free(dir);
		return usage_error("rules", "--check and --run exclude each "
					    "other");
	}
	if (!dir)
		dir = rule_default_dir();
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
