/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_LIB_MAINTAINERS_H
#define GFPAUDIT_LIB_MAINTAINERS_H

#include <stddef.h>

/*
 * A kernel tree's MAINTAINERS file, parsed once for every user: the patch
 * series' To:/Cc: (patches/maintainers.c) and the report's subsystems
 * (reports/maintainers.c).
 *
 * An entry starts at a title line (the first non-field line after a blank
 * line or after another entry's fields) and holds its "T:\tvalue" fields.
 * Path matching follows scripts/get_maintainer.pl:
 *
 *  - F: a pattern ending in '/' matches everything below that directory;
 *    any other pattern matches paths at its own depth ('*' and '?' are
 *    wildcards and, as get_maintainer.pl turns them into regex '.*' and
 *    '.', may span a '/' only where the depth still agrees); a literal
 *    pattern that names a directory of the path matches below it (the
 *    script appends the '/' after checking the disk).  A path's match is
 *    also a prefix match, as the script's regex is anchored at the start
 *    only.
 *  - X: an entry with a matching X: pattern does not match at all.
 *  - N: a POSIX extended regex anywhere in the path.
 *  - K: keywords are about a patch's content, not its paths: they are kept
 *    (maint_entry.k) but play no part in matching.
 *
 * Precision ("depth") ranks the matches, most specific first, as the
 * script orders its output: an F: pattern's '/' count plus one for a file
 * pattern, -1 for one starting with a wildcard (THE REST's "*" patterns),
 * 0 for an N: match; an entry's depth is its best pattern's.
 */
struct maint_strv {
	char **v;
	size_t n;
};

struct maint_entry {
	char *title;
	struct maint_strv m; /* M: maintainers, as written */
	struct maint_strv r; /* R: reviewers */
	struct maint_strv l; /* L: lists, with any "(moderated ...)" note */
	struct maint_strv n; /* N: regexes, as written */
	struct maint_strv k; /* K: keyword regexes, as written */
	int has_files;	     /* at least one F: or X: pattern */
	/* Internal: this entry's F:/X: patterns. */
	size_t pat_first, pat_end;
};

struct maintainers;

/* Parse the text of a MAINTAINERS file; never fails (may be empty). */
struct maintainers *maintainers_parse(const char *buf, size_t len);
void maintainers_free(struct maintainers *m);

/* Number of entries with F: or X: patterns ("sections" in a report). */
size_t maintainers_count(const struct maintainers *m);
size_t maintainers_nentries(const struct maintainers *m);
const struct maint_entry *maintainers_entry(const struct maintainers *m,
					    size_t i);

struct maint_match {
	size_t entry;
	int depth;
};

/*
 * Every entry covering PATH (relative to the tree root), most specific
 * first, equal depths in file order.  Returns the count; *out (to free)
 * holds the matches, NULL when there are none.
 */
size_t maintainers_match(const struct maintainers *m, const char *path,
			 struct maint_match **out);

/*
 * The first entry maintainers_match() would return, or NULL; faster, as
 * it stops looking at patterns that cannot beat the best so far.
 */
const struct maint_entry *maintainers_best(const struct maintainers *m,
					   const char *path);

#endif
