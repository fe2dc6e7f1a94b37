// SPDX-License-Identifier: GPL-2.0
/*
 * The lines kernel maintainers and their tools read at the end of a
 * patch: Fixes:/Link: trailers from the rule, and base-commit:, which
 * tells a reviewer (and b4, and the CI bots) which commit the series
 * applies to.  git format-patch --base cannot name it: the series is
 * built in a scratch repository that has only copies of the touched
 * files, not the tree's history, so the commit is named here, and only
 * when it is true.
 */
#include "patches/trailers.h"
#include "lib/ktree.h"
#include "lib/spawn.h"

#include <stdlib.h>
#include <string.h>

void trailers_add(struct strbuf *sb, const struct rule *r)
{
	size_t n;

	if (r->fixes)
		sb_addf(sb, "Fixes: %s\n", r->fixes);
	/*
	 * Doing what upstream did is not fixing its commit: the commit is
	 * a reference, not the origin of a bug.
	 */
	n = r->upstream ? rule_commit_sha_len(r->upstream) : 0;
	if (n)
		sb_addf(sb, "Link: %s%.*s\n", UPSTREAM_COMMIT_URL, (int)n,
			r->upstream);
}

/*
 * ls-tree -r -z output with each entry's mode left out: the content and
 * path decide whether a patch applies, a mode bit git may not track
 * (core.fileMode) does not.
 */
static void strip_modes(const struct strbuf *in, struct strbuf *out)
{
	const char *p = in->buf ? in->buf : "", *end = p + in->len;

	while (p < end) {
		size_t len = strnlen(p, (size_t)(end - p));
		const char *sp = memchr(p, ' ', len);

		if (sp)
			sb_add(out, sp + 1, len - (size_t)(sp + 1 - p));
		sb_addc(out, '\n');
		p += len + 1;
	}
}

/* The paths of ls-tree -r -z output, for a pathspec. */
static int paths_of(const struct strbuf *ls, char ***v)
{
	const char *p = ls->buf ? ls->buf : "", *end = p + ls->len;
	int n = 0;

	*v = NULL;
	while (p < end) {
		size_t len = strnlen(p, (size_t)(end - p));
		const char *tab = memchr(p, '\t', len);

		if (tab) {
			*v = xrealloc(*v, (size_t)(n + 1) * sizeof(**v));
			(*v)[n++] =
				xstrndup(tab + 1, len - (size_t)(tab + 1 - p));
		}
		p += len + 1;
	}
	return n;
}

int series_base_commit(struct scratch *s, const char *tree, char out[41])
{
	static const char *const base_ls[] = {"ls-tree", "-r", "-z",
					      "gfpaudit-base", NULL};
	struct strbuf base = STRBUF_INIT, ls = STRBUF_INIT;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	struct spawn_opts o = {.out = &ls, .quiet = 1};
	char sha[41], **paths = NULL, **argv;
	int i, k = 0, n, rc = -1;

	if (ktree_git_head(tree, sha) || scratch_git(s, &base, NULL, base_ls))
		goto out;
	n = paths_of(&base, &paths);
	argv = xcalloc((size_t)n + 10, sizeof(*argv));
	argv[k++] = "git";
	argv[k++] = "--literal-pathspecs";
	argv[k++] = "-C";
	argv[k++] = (char *)tree;
	argv[k++] = "ls-tree";
	argv[k++] = "-r";
	argv[k++] = "-z";
	argv[k++] = sha;
	argv[k++] = "--";
	for (i = 0; i < n; i++)
		argv[k++] = paths[i];
	if (n && run_argv(argv, &o) == 0) {
		strip_modes(&base, &a);
		strip_modes(&ls, &b);
		if (a.len == b.len && !memcmp(a.buf, b.buf, a.len)) {
			memcpy(out, sha, sizeof(sha));
			rc = 0;
		} else {
			warn_msg("files the series touches differ from %s's "
				 "HEAD or are not in it; no base-commit: "
				 "written",
				 tree);
		}
	}
	free(argv);
	for (i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
out:
	sb_release(&base);
	sb_release(&ls);
	sb_release(&a);
	sb_release(&b);
	return rc;
}
