// SPDX-License-Identifier: GPL-2.0
/*
 * Finding and loading rule files.  The parser itself (rule.c) does no I/O;
 * this is the part that reads files and checks that a rule's name is its
 * file's name, so `--rule NAME` always means data/NAME.rule.
 */
#include "rules/rule.h"
#include "analyzer/tables.h"

#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *rule_default_dir(void)
{
	const char *d = rules_dir();

	return xstrdup(d ? d : "rules");
}

int rule_load_file(const char *path, struct rule *r)
{
	char *buf, err[512], *base, *copy;
	size_t len;
	int rc;

	if (read_whole_file(path, &buf, &len)) {
		error_msg("%s: %s", path, strerror(errno));
		return -1;
	}
	rc = rule_parse(buf, len, path, r, err, sizeof(err));
	free(buf);
	if (rc) {
		error_msg("%s", err);
		return -1;
	}
	copy = xstrdup(path);
	base = basename(copy);
	if (str_has_suffix(base, ".rule") &&
	    (strlen(base) != strlen(r->name) + 5 ||
	     strncmp(base, r->name, strlen(r->name)))) {
		error_msg("%s:1: name '%s' does not match the file name", path,
			  r->name);
		rule_free(r);
		rc = -1;
	}
	free(copy);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int rules_load_dir(const char *dir, struct rule **out, int *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	int nn = 0, i, bad = 0;

	*out = NULL;
	*n = 0;
	if (!d) {
		error_msg("rules directory %s: %s", dir, strerror(errno));
		return 1;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || !str_has_suffix(e->d_name, ".rule"))
			continue;
		names = xrealloc(names, (size_t)(nn + 1) * sizeof(*names));
		names[nn++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (nn)
		qsort(names, (size_t)nn, sizeof(*names), cmp_str);
	*out = xcalloc((size_t)nn + 1, sizeof(struct rule));
	for (i = 0; i < nn; i++) {
		char *p = xasprintf("%s/%s", dir, names[i]);

		if (rule_load_file(p, &(*out)[*n]) == 0)
			(*n)++;
		else
			bad++;
		free(p);
		free(names[i]);
	}
	free(names);
	return bad;
}

void rules_free(struct rule *rules, int n)
{
	int i;

	for (i = 0; i < n; i++)
		rule_free(&rules[i]);
	free(rules);
}

struct rule *rules_find(struct rule *rules, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(rules[i].name, name))
			return &rules[i];
	return NULL;
}
