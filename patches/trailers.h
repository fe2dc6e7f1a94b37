/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_PATCHES_TRAILERS_H
#define GFPAUDIT_PATCHES_TRAILERS_H

#include "lib/util.h"
#include "patches/scratch.h"
#include "rules/rule.h"

/* Where a Link: to an upstream commit points; the short hash follows. */
#define UPSTREAM_COMMIT_URL "https://git.kernel.org/torvalds/c/"

/*
 * The trailers rule r gives each commit message, before Signed-off-by:
 * "Fixes: SHA (\"subject\")" when the rule says its findings are a bug
 * that commit introduced (`fixes:`), "Link: URL/SHA" when it does what
 * an upstream commit did (`upstream:`).
 */
void trailers_add(struct strbuf *sb, const struct rule *r);

/*
 * The commit the series applies to: tree's own HEAD, when tree is the
 * top of a git repository and every file copied into the scratch
 * repository s (its tag gfpaudit-base) is in that HEAD with the same
 * content.  Returns 0 with the hash in out, or -1 when no commit can be
 * named truthfully: no HEAD (not a repository, one inside another's work
 * tree, nothing committed), or, with a warning, a touched file changed
 * or untracked.
 */
int series_base_commit(struct scratch *s, const char *tree, char out[41]);

#endif
