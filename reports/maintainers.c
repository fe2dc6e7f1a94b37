// SPDX-License-Identifier: GPL-2.0
/*
 * Subsystem naming for reports, on top of the shared MAINTAINERS parser
 * (lib/maintainers.c): a path without a section is grouped by directory,
 * so that a tree without MAINTAINERS (or a file it misses) still sorts
 * into readable groups.
 */
#include "reports/maintainers.h"

#include <stdio.h>
#include <string.h>

/* The first two components of a path: the fallback "subsystem". */
static const char *dir_of(const char *path, char *out, size_t n)
{
	const char *s = strchr(path, '/');

	if (s && strchr(s + 1, '/'))
		s = strchr(s + 1, '/');
	if (!s)
		snprintf(out, n, "(top level)");
	else
		snprintf(out, n, "%.*s/", (int)(s - path), path);
	return out;
}

const char *report_subsystem(const struct maintainers *m, const char *path,
			     char *buf, size_t n)
{
	const struct maint_entry *e = maintainers_best(m, path);

	return e ? e->title : dir_of(path, buf, n);
}
