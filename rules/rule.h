/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_RULE_H
#define GFPAUDIT_RULE_H

#include "lib/ktree.h"
#include "lib/util.h"

#include <stddef.h>

/*
 * A rule file (data/NAME.rule, format in docs/rules.md): header keys
 * that say what the rule is and what its patch does, then one or more
 * `match:` sections that select database rows and say what to report.
 *
 * rule_parse() is a pure function over a buffer (no I/O, no globals) so
 * the fuzz target and the unit tests can call it directly.
 */

enum rule_action {
	RULE_REPORT,	   /* findings only */
	RULE_REPLACE,	   /* replace a flag token by another */
	RULE_DROP,	   /* drop a flag from its expression */
	RULE_ADD,	   /* add a flag to a site's flags argument */
	RULE_SUGGEST_PARAM /* pass the caller's gfp_t parameter instead */
};

enum rule_source { SRC_FLAG_USES, SRC_SITES, SRC_CACHES };

enum cond_op {
	OP_EQ,
	OP_NE,
	OP_LT,
	OP_GT,
	OP_IS_NULL,
	OP_NOT_NULL,
	OP_HAS_ANY, /* the column's text contains one of the words */
	OP_HAS_NONE /* ... contains none of them */
};

struct rule_cond {
	char *column;
	enum cond_op op;
	char **values;
	int nvalues;
};

struct rule_match {
	enum rule_source source;
	struct rule_cond *conds;
	int nconds;
	char *severity; /* error, warning, note */
	char *message;	/* template, {column} substituted */
	char *suggestion;
	int line;
};

/* One `replace: FROM TO` line; TO is NULL for "-" (drop the token). */
struct rule_subst {
	char *from;
	char *to;
};

struct rule {
	char *name;
	char *description;
	char *versions; /* as written, for listing */
	int has_min, has_max, max_inclusive, min_exclusive;
	struct kversion vmin, vmax;
	enum rule_action action;
	char **flags; /* the flags the rule is about */
	int nflags;
	struct rule_subst *subst;
	int nsubst;
	char *add_flag;
	int remove_definition; /* remove the flag's #define and tables */
	int prefer_param;      /* --prefer-gfp-param is meaningful */
	char *upstream;	       /* upstream commit doing the same */
	char *fixes;	       /* commit whose bug the finding is */
	char *subject;	       /* patch subject after the prefix */
	char *why;	       /* commit message body */
	char *cocci;	       /* companion semantic patch */
	char *cocci_covers;    /* what of the series it finds */
	struct rule_match *matches;
	int nmatches;
};

/*
 * Parse a rule file held in buf[0..len).  fname is only used in messages.
 * Returns 0, or -1 with "FNAME:LINE: problem" in err.  On failure *r is
 * left empty (nothing to free).
 */
int rule_parse(const char *buf, size_t len, const char *fname, struct rule *r,
	       char *err, size_t errlen);
void rule_free(struct rule *r);

/* 1 when the rule applies to kernel version kv. */
int rule_applies(const struct rule *r, const struct kversion *kv);

const char *rule_action_name(enum rule_action a);
const char *rule_source_name(enum rule_source s);

/* Columns a `where:` or a {template} may name for a source, NULL-ended. */
const char *const *rule_source_columns(enum rule_source s);

/*
 * The length of the abbreviated hash ref starts with ("0ee931c4e31a
 * (\"subject\")": 12), or 0 when it does not start with 12 to 40 hex
 * digits and a blank or its end: the form commit references take in
 * `upstream:` and `fixes:`.
 */
size_t rule_commit_sha_len(const char *ref);

/* Word-boundary search: 1 when word occurs in text as a C identifier. */
int rule_has_word(const char *text, const char *word);

/*
 * The rules directory is analyzer/tables.h's rules_dir() (the one that
 * also holds tracked-flags.txt); rule_default_dir() is a malloc'd copy,
 * or "rules" when it cannot be found.
 */
char *rule_default_dir(void);

/*
 * Load every DIR/ *.rule, sorted by name.  Errors are printed; returns
 * the number of files that failed (the good ones are still returned).
 */
int rules_load_dir(const char *dir, struct rule **out, int *n);
/* Load one file; prints the error and returns -1 when it is malformed. */
int rule_load_file(const char *path, struct rule *r);
void rules_free(struct rule *rules, int n);
/* The rule called name in rules[], or NULL. */
struct rule *rules_find(struct rule *rules, int n, const char *name);

#endif
