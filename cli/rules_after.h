/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_CLI_RULES_AFTER_H
#define GFPAUDIT_CLI_RULES_AFTER_H

/*
 * The rules a command that writes the database evaluates when it
 * finishes (scan, merge), so that the findings are current after any of
 * them without a separate `rules --run`.  --run-rules LIST chooses them
 * (comma-separated names), --no-rules skips the step.
 */
struct rules_after {
	const char *dir; /* rule directory; NULL: the default */
	char **names;	 /* from --run-rules; none: every rule */
	int nnames;
	int off;	 /* --no-rules */
};

/* Parse --run-rules LIST into ra (names may repeat the option). */
void rules_after_add(struct rules_after *ra, const char *list);

/*
 * Before the command writes anything: every name must be a rule.
 * Returns 0, or prints "gfpaudit CMD: no rule 'X' in DIR" and returns
 * EXIT_USAGE.
 */
int rules_after_check(const char *cmd, struct rules_after *ra);

/*
 * Evaluate the rules over DBPATH and print one summary line on stderr.
 * Returns EXIT_OK, or EXIT_INTERNAL on a database error (printed).
 */
int rules_after_run(const char *cmd, const char *dbpath,
		    struct rules_after *ra);

void rules_after_free(struct rules_after *ra);

#endif
