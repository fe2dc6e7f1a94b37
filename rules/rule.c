// SPDX-License-Identifier: GPL-2.0
/*
 * The rule-file parser.  A rule file is a list of "key: value" lines
 * (format: docs/rules.md).  Everything a rule may name — columns,
 * operators, actions, template fields — is checked here, so that a typo in
 * a rule is an error with its file and line rather than a rule that
 * silently matches nothing.
 */
#include "rules/rule.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const flag_use_cols[] = {
	"path",	 "line",    "col",
	"flag",	 "context", "function",
	"macro", "call",    "in_disabled_branch",
	NULL};

/* The RULE columns of db/sites_cols.h, in table order. */
static const char *const site_cols[] = {
#define SITE_COL_RULE(name) #name,
#define SITE_COL_INTERNAL(name)
#define SITE_COL(name, type, decl, value, rule) SITE_COL_##rule(name)
#include "db/sites_cols.h"
#undef SITE_COL_RULE
#undef SITE_COL_INTERNAL
	NULL};

static const char *const cache_cols[] = {
	"path",	 "line",	"col",		"variable",	     "name",
	"flags", "reclaimable", "has_shrinker", "shrinker_evidence", NULL};

const char *const *rule_source_columns(enum rule_source s)
{
	switch (s) {
	case SRC_FLAG_USES:
		return flag_use_cols;
	case SRC_SITES:
		return site_cols;
	case SRC_CACHES:
		return cache_cols;
	}
	return flag_use_cols;
}

const char *rule_source_name(enum rule_source s)
{
	static const char *const names[] = {"flag_uses", "sites", "caches"};

	return names[s];
}

static const char *const action_names[] = {"report", "replace",	      "drop",
					   "add",    "suggest-param", NULL};

const char *rule_action_name(enum rule_action a)
{
	return action_names[a];
}

static int is_ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

int rule_has_word(const char *text, const char *word)
{
	return str_find_word(text, word) != NULL;
}

struct parser {
	const char *fname;
	int line;
	char *err;
	size_t errlen;
};

static int perr(struct parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int perr(struct parser *p, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(p->err, p->errlen, "%s:%d: ", p->fname, p->line);

	if (n < 0 || (size_t)n >= p->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* Split on blanks and commas into a NULL-free array of words. */
static char **split_words(const char *s, int *n)
{
	char **v = NULL;
	int cnt = 0;

	while (*s) {
		size_t k;

		while (*s == ' ' || *s == '\t' || *s == ',')
			s++;
		k = strcspn(s, " \t,");
		if (!k)
			break;
		v = xrealloc(v, (size_t)(cnt + 1) * sizeof(*v));
		v[cnt++] = xstrndup(s, k);
		s += k;
	}
	*n = cnt;
	return v;
}

static void free_words(char **v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static int valid_ident(const char *s)
{
	if (!*s || isdigit((unsigned char)*s))
		return 0;
	for (; *s; s++)
		if (!is_ident_char(*s))
			return 0;
	return 1;
}

static int is_column(enum rule_source s, const char *col)
{
	const char *const *c;

	for (c = rule_source_columns(s); *c; c++)
		if (!strcmp(*c, col))
			return 1;
	return 0;
}

/* Every {field} of a template must be a column of the source. */
static int check_template(struct parser *p, enum rule_source s, const char *t)
{
	const char *o, *c;

	for (o = strchr(t, '{'); o; o = strchr(c, '{')) {
		char *f;
		int good;

		c = strchr(o, '}');
		if (!c)
			return perr(p, "unclosed '{' in template");
		f = xstrndup(o + 1, (size_t)(c - o - 1));
		good = is_column(s, f);
		if (!good)
			perr(p, "template field {%s} is not a column of %s", f,
			     rule_source_name(s));
		free(f);
		if (!good)
			return -1;
	}
	return 0;
}

/* "<4.14", ">=2.6.24", "=4.13", "all" — space-separated constraints. */
static int parse_versions(struct parser *p, struct rule *r, const char *v)
{
	char **w;
	int n, i, rc = 0;

	r->versions = xstrdup(v);
	if (!strcmp(v, "all"))
		return 0;
	w = split_words(v, &n);
	if (!n)
		rc = perr(p, "versions: empty (use 'all')");
	for (i = 0; i < n && !rc; i++) {
		const char *s = w[i];
		int lt = 0, gt = 0, eq = 0;
		struct kversion kv;

		for (; *s == '<' || *s == '>' || *s == '='; s++) {
			lt |= *s == '<';
			gt |= *s == '>';
			eq |= *s == '=';
		}
		if ((lt && gt) || (!lt && !gt && !eq) ||
		    kversion_parse(s, &kv)) {
			rc = perr(p,
				  "versions: bad constraint '%s' "
				  "(want <V, <=V, >V, >=V or =V)",
				  w[i]);
			break;
		}
		if (gt || (eq && !lt)) {
			r->has_min = 1;
			r->vmin = kv;
			r->min_exclusive = gt && !eq;
		}
		if (lt || (eq && !gt)) {
			r->has_max = 1;
			r->vmax = kv;
			r->max_inclusive = eq;
		}
	}
	free_words(w, n);
	return rc;
}

int rule_applies(const struct rule *r, const struct kversion *kv)
{
	if (r->has_min) {
		int c = kversion_cmp(kv, &r->vmin);

		if (c < 0 || (c == 0 && r->min_exclusive))
			return 0;
	}
	if (r->has_max) {
		int c = kversion_cmp(kv, &r->vmax);

		if (c > 0 || (c == 0 && !r->max_inclusive))
			return 0;
	}
	return 1;
}

static const struct {
	const char *name;
	enum cond_op op;
	int nargs; /* -1: one or more words */
} ops[] = {
	{"=", OP_EQ, 1},
	{"!=", OP_NE, 1},
	{"<", OP_LT, 1},
	{">", OP_GT, 1},
	{"is-null", OP_IS_NULL, 0},
	{"not-null", OP_NOT_NULL, 0},
	{"has-any", OP_HAS_ANY, -1},
	{"has-none", OP_HAS_NONE, -1},
};

static int parse_where(struct parser *p, struct rule_match *m, const char *v)
{
	struct rule_cond c = {0};
	char **w;
	int n, i, k;

	w = split_words(v, &n);
	if (n < 2) {
		free_words(w, n);
		return perr(p, "where: want COLUMN OP [VALUE...]");
	}
	if (!is_column(m->source, w[0])) {
		perr(p, "where: '%s' is not a column of %s", w[0],
		     rule_source_name(m->source));
		free_words(w, n);
		return -1;
	}
	for (k = 0; k < (int)(sizeof(ops) / sizeof(ops[0])); k++)
		if (!strcmp(ops[k].name, w[1]))
			break;
	if (k == (int)(sizeof(ops) / sizeof(ops[0]))) {
		perr(p,
		     "where: unknown operator '%s' (=, !=, <, >, is-null, "
		     "not-null, has-any, has-none)",
		     w[1]);
		free_words(w, n);
		return -1;
	}
	if ((ops[k].nargs >= 0 && n - 2 != ops[k].nargs) ||
	    (ops[k].nargs < 0 && n < 3)) {
		perr(p, "where: operator '%s' takes %s", w[1],
		     ops[k].nargs == 0	 ? "no value"
		     : ops[k].nargs == 1 ? "one value"
					 : "one or more values");
		free_words(w, n);
		return -1;
	}
	c.column = w[0];
	c.op = ops[k].op;
	c.nvalues = n - 2;
	c.values = xcalloc((size_t)c.nvalues + 1, sizeof(char *));
	for (i = 0; i < c.nvalues; i++)
		c.values[i] = w[i + 2];
	free(w[1]);
	free(w);
	m->conds = xrealloc(m->conds, (size_t)(m->nconds + 1) * sizeof(c));
	m->conds[m->nconds++] = c;
	return 0;
}

static void free_match(struct rule_match *m)
{
	int i;

	for (i = 0; i < m->nconds; i++) {
		free(m->conds[i].column);
		free_words(m->conds[i].values, m->conds[i].nvalues);
	}
	free(m->conds);
	free(m->severity);
	free(m->message);
	free(m->suggestion);
}

void rule_free(struct rule *r)
{
	int i;

	free(r->name);
	free(r->description);
	free(r->versions);
	free_words(r->flags, r->nflags);
	for (i = 0; i < r->nsubst; i++) {
		free(r->subst[i].from);
		free(r->subst[i].to);
	}
	free(r->subst);
	free(r->add_flag);
	free(r->upstream);
	free(r->fixes);
	free(r->subject);
	free(r->why);
	free(r->cocci);
	free(r->cocci_covers);
	for (i = 0; i < r->nmatches; i++)
		free_match(&r->matches[i]);
	free(r->matches);
	memset(r, 0, sizeof(*r));
}

size_t rule_commit_sha_len(const char *ref)
{
	size_t n = strspn(ref, "0123456789abcdef");

	if (n < 12 || n > 40 || (ref[n] && ref[n] != ' '))
		return 0;
	return n;
}

static int set_once(struct parser *p, char **slot, const char *key,
		    const char *v)
{
	if (*slot)
		return perr(p, "%s: given twice", key);
	*slot = xstrdup(v);
	return 0;
}

static int parse_bool(struct parser *p, const char *key, const char *v,
		      int *out)
{
	if (!strcmp(v, "yes"))
		*out = 1;
	else if (!strcmp(v, "no"))
		*out = 0;
	else
		return perr(p, "%s: want yes or no, not '%s'", key, v);
	return 0;
}

static int parse_match_key(struct parser *p, struct rule *r, const char *key,
			   const char *v)
{
	struct rule_match *m = &r->matches[r->nmatches - 1];

	if (!strcmp(key, "where"))
		return parse_where(p, m, v);
	if (!strcmp(key, "severity")) {
		if (strcmp(v, "error") && strcmp(v, "warning") &&
		    strcmp(v, "note"))
			return perr(p,
				    "severity: want error, warning or "
				    "note, not '%s'",
				    v);
		return set_once(p, &m->severity, key, v);
	}
	if (!strcmp(key, "message")) {
		if (check_template(p, m->source, v))
			return -1;
		return set_once(p, &m->message, key, v);
	}
	if (!strcmp(key, "suggestion")) {
		if (check_template(p, m->source, v))
			return -1;
		return set_once(p, &m->suggestion, key, v);
	}
	return perr(p, "unknown key '%s' in a match section", key);
}

static int parse_replace(struct parser *p, struct rule *r, const char *v)
{
	char **w;
	int n;

	w = split_words(v, &n);
	if (n != 2 || !valid_ident(w[0]) ||
	    (strcmp(w[1], "-") && !valid_ident(w[1]))) {
		free_words(w, n);
		return perr(p, "replace: want FROM TO (identifiers; TO may "
			       "be '-' to drop FROM)");
	}
	r->subst =
		xrealloc(r->subst, (size_t)(r->nsubst + 1) * sizeof(*r->subst));
	r->subst[r->nsubst].from = w[0];
	if (!strcmp(w[1], "-")) {
		r->subst[r->nsubst].to = NULL;
		free(w[1]);
	} else {
		r->subst[r->nsubst].to = w[1];
	}
	r->nsubst++;
	free(w);
	return 0;
}

static int parse_header_key(struct parser *p, struct rule *r, const char *key,
			    const char *v)
{
	int i;

	if (!strcmp(key, "name")) {
		for (i = 0; v[i]; i++)
			if (!isalnum((unsigned char)v[i]) && v[i] != '-')
				return perr(p,
					    "name: '%s' may only have "
					    "letters, digits and '-'",
					    v);
		return set_once(p, &r->name, key, v);
	}
	if (!strcmp(key, "description"))
		return set_once(p, &r->description, key, v);
	if (!strcmp(key, "versions")) {
		if (r->versions)
			return perr(p, "versions: given twice");
		return parse_versions(p, r, v);
	}
	if (!strcmp(key, "action")) {
		for (i = 0; action_names[i]; i++)
			if (!strcmp(action_names[i], v))
				break;
		if (!action_names[i])
			return perr(p,
				    "action: unknown '%s' (report, replace, "
				    "drop, add, suggest-param)",
				    v);
		r->action = (enum rule_action)i;
		return 0;
	}
	if (!strcmp(key, "flags")) {
		char **w;
		int n;

		if (r->nflags)
			return perr(p, "flags: given twice");
		w = split_words(v, &n);
		for (i = 0; i < n; i++)
			if (!valid_ident(w[i])) {
				perr(p, "flags: '%s' is not an identifier",
				     w[i]);
				free_words(w, n);
				return -1;
			}
		r->flags = w;
		r->nflags = n;
		return 0;
	}
	if (!strcmp(key, "replace"))
		return parse_replace(p, r, v);
	if (!strcmp(key, "add")) {
		if (!valid_ident(v))
			return perr(p, "add: '%s' is not an identifier", v);
		return set_once(p, &r->add_flag, key, v);
	}
	if (!strcmp(key, "remove-definition"))
		return parse_bool(p, key, v, &r->remove_definition);
	if (!strcmp(key, "prefer-param"))
		return parse_bool(p, key, v, &r->prefer_param);
	if (!strcmp(key, "upstream"))
		return set_once(p, &r->upstream, key, v);
	if (!strcmp(key, "fixes")) {
		/* What checkpatch wants of a Fixes: tag, checked here once. */
		size_t n = rule_commit_sha_len(v);

		if (!n || strlen(v + n) < 6 || strncmp(v + n, " (\"", 3) ||
		    !str_has_suffix(v + n, "\")"))
			return perr(p, "fixes: want SHA (\"subject\"), SHA of "
				       "12 to 40 hex digits");
		return set_once(p, &r->fixes, key, v);
	}
	if (!strcmp(key, "subject"))
		return set_once(p, &r->subject, key, v);
	if (!strcmp(key, "cocci")) {
		if (!str_has_suffix(v, ".cocci") || strchr(v, '/'))
			return perr(p, "cocci: want a file name NAME.cocci");
		return set_once(p, &r->cocci, key, v);
	}
	if (!strcmp(key, "cocci-covers")) {
		/* repeated lines are one sentence, for the cover letter */
		char *t = r->cocci_covers ? xasprintf("%s %s", r->cocci_covers,
						      v)
					  : xstrdup(v);

		free(r->cocci_covers);
		r->cocci_covers = t;
		return 0;
	}
	if (!strcmp(key, "why")) {
		/* Repeated why: lines are the paragraphs' lines; "." = blank.
		 */
		struct strbuf sb = STRBUF_INIT;

		if (r->why)
			sb_adds(&sb, r->why);
		if (strcmp(v, "."))
			sb_adds(&sb, v);
		sb_addc(&sb, '\n');
		free(r->why);
		r->why = sb_detach(&sb);
		return 0;
	}
	return perr(p, "unknown key '%s'", key);
}

static int parse_line(struct parser *p, struct rule *r, char *s)
{
	char *colon, *key, *v, *e;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s || *s == '#')
		return 0;
	colon = strchr(s, ':');
	if (!colon)
		return perr(p, "want 'key: value'");
	*colon = '\0';
	key = s;
	for (e = colon; e > key && isspace((unsigned char)e[-1]); e--)
		e[-1] = '\0';
	v = colon + 1;
	while (*v == ' ' || *v == '\t')
		v++;
	for (e = v + strlen(v); e > v && isspace((unsigned char)e[-1]); e--)
		e[-1] = '\0';
	if (!*key)
		return perr(p, "missing key before ':'");
	if (!*v && strcmp(key, "why"))
		return perr(p, "%s: missing value", key);
	if (!strcmp(key, "match")) {
		struct rule_match m = {.line = p->line};

		if (!strcmp(v, "flag_uses"))
			m.source = SRC_FLAG_USES;
		else if (!strcmp(v, "sites"))
			m.source = SRC_SITES;
		else if (!strcmp(v, "caches"))
			m.source = SRC_CACHES;
		else
			return perr(p,
				    "match: unknown table '%s' (flag_uses, "
				    "sites, caches)",
				    v);
		r->matches = xrealloc(r->matches,
				      (size_t)(r->nmatches + 1) * sizeof(m));
		r->matches[r->nmatches++] = m;
		return 0;
	}
	if (r->nmatches)
		return parse_match_key(p, r, key, v);
	return parse_header_key(p, r, key, v);
}

static int check_complete(struct parser *p, struct rule *r)
{
	int i;

	if (!r->name)
		return perr(p, "missing 'name:'");
	if (!r->description)
		return perr(p, "missing 'description:'");
	if (!r->versions)
		return perr(p, "missing 'versions:' (use 'all')");
	if (!r->nflags)
		return perr(p, "missing 'flags:'");
	if ((r->action == RULE_REPLACE || r->action == RULE_DROP) && !r->nsubst)
		return perr(p, "action %s needs at least one 'replace:'",
			    rule_action_name(r->action));
	if (r->action == RULE_ADD && !r->add_flag)
		return perr(p, "action add needs 'add:'");
	if (r->action != RULE_REPORT && !r->subject)
		return perr(p, "action %s needs 'subject:' for its patches",
			    rule_action_name(r->action));
	for (i = 0; i < r->nmatches; i++) {
		struct rule_match *m = &r->matches[i];

		if (!m->message) {
			p->line = m->line;
			return perr(p, "match section has no 'message:'");
		}
		if (!m->severity)
			m->severity = xstrdup("warning");
		/* Their patches edit a site's recorded flags argument. */
		if ((r->action == RULE_ADD ||
		     r->action == RULE_SUGGEST_PARAM) &&
		    m->source != SRC_SITES &&
		    (r->action != RULE_ADD || m->source != SRC_CACHES)) {
			p->line = m->line;
			return perr(p, "action %s edits sites: match %s",
				    rule_action_name(r->action),
				    r->action == RULE_ADD ? "sites or caches"
							  : "sites");
		}
	}
	if ((r->action == RULE_ADD || r->action == RULE_SUGGEST_PARAM) &&
	    !r->nmatches)
		return perr(p, "action %s needs a 'match:' section (the sites "
			       "it edits)",
			    rule_action_name(r->action));
	if (r->cocci_covers && !r->cocci)
		return perr(p, "'cocci-covers:' without 'cocci:'");
	if (r->action == RULE_REPORT && !r->nmatches)
		return perr(p, "a report rule needs a 'match:' section");
	return 0;
}

int rule_parse(const char *buf, size_t len, const char *fname, struct rule *r,
	       char *err, size_t errlen)
{
	struct parser p = {fname, 0, err, errlen};
	size_t off = 0;
	int rc = 0;

	memset(r, 0, sizeof(*r));
	if (errlen)
		err[0] = '\0';
	while (off < len && !rc) {
		const char *nl = memchr(buf + off, '\n', len - off);
		size_t n = nl ? (size_t)(nl - (buf + off)) : len - off;
		char *line;

		p.line++;
		if (memchr(buf + off, '\0', n)) {
			rc = perr(&p, "NUL byte in rule file");
			break;
		}
		line = xstrndup(buf + off, n);
		rc = parse_line(&p, r, line);
		free(line);
		off += n + 1;
	}
	if (!rc) {
		p.line = p.line ? p.line : 1;
		rc = check_complete(&p, r);
	}
	if (rc)
		rule_free(r);
	return rc;
}
