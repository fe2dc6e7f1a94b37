// SPDX-License-Identifier: GPL-2.0
/*
 * Subsystems and their subject prefixes.  Maintainers expect a patch
 * subject in their own style ("drm/i915: ...", "fs/proc: ..."): the best
 * source is the touched files' own history, the fallback a small table of
 * the kernel's usual forms.
 */
#include "patches/subsys.h"
#include "lib/spawn.h"
#include "lib/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* How many leading components name the subsystem under a top dir. */
static const struct {
	const char *dir;
	int depth;
} depths[] = {
	{"drivers/gpu/drm/", 4},
	{"drivers/net/ethernet/", 4},
	{"drivers/net/wireless/", 4},
	{"drivers/staging/", 3},
	{"drivers/", 3},
	{"arch/", 2},
	{"fs/", 2},
	{"net/", 2},
	{"sound/", 2},
	{"security/", 2},
	{"tools/", 2},
	{"include/", 2},
	{"virt/", 2},
	{"samples/", 2},
};

char *subsys_key(const char *path)
{
	int depth = 1, i, k;
	const char *p;

	for (i = 0; i < (int)(sizeof(depths) / sizeof(depths[0])); i++)
		if (str_has_prefix(path, depths[i].dir)) {
			depth = depths[i].depth;
			break;
		}
	/* Stop at the last directory: "fs/open.c" is in "fs". */
	for (p = path, k = 0; *p; p++)
		if (*p == '/' && ++k == depth)
			break;
	if (!*p) {
		const char *slash = strrchr(path, '/');

		return slash ? xstrndup(path, (size_t)(slash - path))
			     : xstrdup(".");
	}
	return xstrndup(path, (size_t)(p - path));
}

static const char *component(const char *key, int n, size_t *len)
{
	const char *p = key;

	while (n-- > 0) {
		p = strchr(p, '/');
		if (!p)
			return NULL;
		p++;
	}
	*len = strcspn(p, "/");
	return p;
}

char *subsys_default_prefix(const char *key)
{
	const char *c;
	size_t n;

	if (str_has_prefix(key, "drivers/gpu/drm/") &&
	    (c = component(key, 3, &n)))
		return xasprintf("drm/%.*s", (int)n, c);
	if (str_has_prefix(key, "drivers/net/") && (c = component(key, 3, &n)))
		return xasprintf("net: %.*s", (int)n, c);
	if (str_has_prefix(key, "drivers/staging/") &&
	    (c = component(key, 2, &n)))
		return xasprintf("staging: %.*s", (int)n, c);
	if (str_has_prefix(key, "drivers/")) {
		const char *c2;
		size_t n2;

		c = component(key, 1, &n);
		c2 = component(key, 2, &n2);
		if (c && c2)
			return xasprintf("%.*s: %.*s", (int)n, c, (int)n2, c2);
		if (c)
			return xasprintf("%.*s", (int)n, c);
	}
	if (str_has_prefix(key, "arch/") && (c = component(key, 1, &n)))
		return xasprintf("%.*s", (int)n, c);
	if (str_has_prefix(key, "net/") && (c = component(key, 1, &n)))
		return xasprintf("net: %.*s", (int)n, c);
	if (str_has_prefix(key, "sound/") && (c = component(key, 1, &n)))
		return xasprintf("ALSA: %.*s", (int)n, c);
	if (str_has_prefix(key, "security/") && (c = component(key, 1, &n)))
		return xasprintf("%.*s", (int)n, c);
	if (!strcmp(key, "tools/perf"))
		return xstrdup("perf");
	if (str_has_prefix(key, "include/trace"))
		return xstrdup("tracing");
	if (str_has_prefix(key, "include/"))
		return xstrdup(key + strlen("include/"));
	return xstrdup(key);
}

/* "drm/i915: fix x" -> "drm/i915"; "Revert ..." and prose -> NULL. */
static char *prefix_of(const char *subj, size_t len)
{
	const char *colon = memchr(subj, ':', len);
	size_t i, n;

	if (!colon || colon + 1 >= subj + len || colon[1] != ' ')
		return NULL;
	n = (size_t)(colon - subj);
	if (!n || n > 40)
		return NULL;
	/* Allow "net: mlx5: x" two-level prefixes. */
	{
		const char *rest = colon + 2;
		size_t rl = len - (size_t)(rest - subj);
		const char *c2 = memchr(rest, ':', rl);

		if (c2 && c2 + 1 < subj + len && c2[1] == ' ' &&
		    !memchr(rest, ' ', (size_t)(c2 - rest)))
			n = (size_t)(c2 - subj);
	}
	for (i = 0; i < n; i++) {
		char c = subj[i];

		if (!isalnum((unsigned char)c) && !strchr("/_-.,: ", c))
			return NULL;
		if (c == ' ' && (i == 0 || subj[i - 1] != ':'))
			return NULL;
	}
	return xstrndup(subj, n);
}

char *subsys_prefix_from_log(const char *log)
{
	char **seen = NULL, *best = NULL;
	int *count = NULL, n = 0, i, bestc = 0;
	const char *p = log;

	while (*p) {
		size_t len = strcspn(p, "\n");
		char *pre = prefix_of(p, len);

		/* A treewide change touches the files, not their subsystem. */
		if (pre && !strcmp(pre, "treewide")) {
			free(pre);
			pre = NULL;
		}
		if (pre) {
			for (i = 0; i < n && strcmp(seen[i], pre); i++)
				;
			if (i == n) {
				seen = xrealloc(seen, (size_t)(n + 1) *
							      sizeof(*seen));
				count = xrealloc(count, (size_t)(n + 1) *
								sizeof(*count));
				seen[n] = pre;
				count[n++] = 0;
			} else {
				free(pre);
			}
			count[i]++;
		}
		p += len;
		if (*p)
			p++;
	}
	for (i = 0; i < n; i++)
		if (count[i] > bestc) {
			bestc = count[i];
			best = seen[i];
		}
	for (i = 0; i < n; i++)
		if (seen[i] != best)
			free(seen[i]);
	free(seen);
	free(count);
	return best;
}

/*
 * The files' own history: a subsystem's maintainers write the prefix
 * they want ("mm/zsmalloc:" where the directory says "mm"), and the last
 * few subjects say it.  One git log for a group, however many files.
 */
char *subsys_prefix(const char *tree, int tree_is_git, const char *key,
		    const char *const *paths, int npaths)
{
	struct strbuf out = STRBUF_INIT;
	struct spawn_opts o = {.out = &out, .quiet = 1};
	char **argv, *pre = NULL;
	int i, k = 0;

	if (!tree_is_git || !npaths)
		return subsys_default_prefix(key);
	argv = xcalloc((size_t)npaths + 11, sizeof(*argv));
	argv[k++] = "git";
	argv[k++] = "--literal-pathspecs";
	argv[k++] = "-C";
	argv[k++] = (char *)tree;
	argv[k++] = "log";
	argv[k++] = "-n";
	argv[k++] = SUBSYS_LOG_SUBJECTS;
	argv[k++] = "--no-merges";
	argv[k++] = "--format=%s";
	argv[k++] = "--";
	for (i = 0; i < npaths; i++)
		argv[k++] = (char *)paths[i];
	if (run_argv(argv, &o) == 0 && out.len)
		pre = subsys_prefix_from_log(out.buf);
	sb_release(&out);
	free(argv);
	return pre ? pre : subsys_default_prefix(key);
}
