// SPDX-License-Identifier: GPL-2.0
/*
 * Where the data files are.  A binary used to walk up from its own path
 * looking for rules/, so a copied or installed binary found nothing; the
 * directories are now named, in one place.
 */
#include "lib/datadir.h"
#include "lib/util.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef GFPAUDIT_DATADIR
#define GFPAUDIT_DATADIR "/usr/local/share/gfpaudit"
#endif
#ifndef GFPAUDIT_SRC_DATADIR
#define GFPAUDIT_SRC_DATADIR "data"
#endif

static int holds(const char *dir, const char *marker)
{
	char *p = xasprintf("%s/%s", dir, marker);
	struct stat st;
	int ok = stat(p, &st) == 0 && S_ISREG(st.st_mode);

	free(p);
	return ok;
}

/* EXE/../share/gfpaudit, or "" */
static void beside_exe(char *out, size_t len)
{
	char exe[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	out[0] = '\0';
	if (n <= 0)
		return;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return;
	*slash = '\0';
	if (strlen(exe) + sizeof("/../share/gfpaudit") <= len)
		memcpy(stpcpy(out, exe), "/../share/gfpaudit",
		       sizeof("/../share/gfpaudit"));
}

const char *gfp_datadir(const char *marker)
{
	static char found[PATH_MAX];
	const char *env = getenv("GFPAUDIT_DATADIR");
	const char *var = "GFPAUDIT_DATADIR";
	char rel[PATH_MAX];

	if (found[0])
		return found;
	if (!env || !*env) {
		env = getenv("GFPAUDIT_RULES_DIR");
		var = "GFPAUDIT_RULES_DIR";
	}
	if (env && *env) {
		if (!holds(env, marker)) {
			error_msg("%s=%s: no %s there", var, env, marker);
			return NULL;
		}
		snprintf(found, sizeof(found), "%s", env);
		return found;
	}
	beside_exe(rel, sizeof(rel));
	if (rel[0] && holds(rel, marker) && realpath(rel, found))
		return found;
	found[0] = '\0';
	if (holds(GFPAUDIT_DATADIR, marker)) {
		snprintf(found, sizeof(found), "%s", GFPAUDIT_DATADIR);
		return found;
	}
	if (holds(GFPAUDIT_SRC_DATADIR, marker)) {
		snprintf(found, sizeof(found), "%s", GFPAUDIT_SRC_DATADIR);
		return found;
	}
	error_msg("no data directory with %s (tried %s, %s, %s; set "
		  "GFPAUDIT_DATADIR)", marker, rel[0] ? rel : "EXE/../share",
		  GFPAUDIT_DATADIR, GFPAUDIT_SRC_DATADIR);
	return NULL;
}
