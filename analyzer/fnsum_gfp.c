// SPDX-License-Identifier: GPL-2.0
/*
 * Sleeps that a gfp_t argument decides (fnsum_gfp.h).
 */
#include "analyzer/fnsum_gfp.h"
#include "analyzer/tufacts.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

void fnsum_gfp_params(const char *buf, size_t decl, size_t open,
		      struct gfp_params *gp)
{
	size_t i = decl, start, e, s;
	int depth = 0, idx = 0;

	memset(gp, 0, sizeof(*gp));
	while (i < open && buf[i] != '(')
		i++;
	if (i >= open || !fnsum_has_word(buf, i, open, "gfp_t", 5))
		return;
	for (start = ++i; i < open; i++) {
		char c = buf[i];

		if (c == '(' || c == '[') {
			depth++;
			continue;
		}
		if ((c == ')' || c == ']') && depth) {
			depth--;
			continue;
		}
		if ((c != ',' && c != ')') || depth)
			continue;
		/* a `gfp_t NAME` parameter: NAME is its last word */
		if (fnsum_has_word(buf, start, i, "gfp_t", 5) &&
		    gp->n < GFP_MAX_PARAMS) {
			for (e = i; e > start &&
				    !is_ident_char((unsigned char)buf[e - 1]);)
				e--;
			for (s = e; s > start &&
				    is_ident_char((unsigned char)buf[s - 1]);)
				s--;
			if (e > s &&
			    !(e - s == 5 && !memcmp(buf + s, "gfp_t", 5))) {
				gp->name[gp->n] = buf + s;
				gp->len[gp->n] = e - s;
				gp->idx[gp->n++] = idx;
			}
		}
		if (c == ')')
			break;
		idx++;
		start = i + 1;
	}
}

/* The parameter of GP that BUF[S..E) hands on whole, or -1. */
static int forwards(const struct gfp_params *gp, const char *buf, size_t s,
		    size_t e)
{
	int k;

	/* `gfp & ~__GFP_DIRECT_RECLAIM`: a mask, not the caller's flags */
	if (memchr(buf + s, '~', e - s) || memchr(buf + s, '&', e - s) ||
	    memchr(buf + s, '?', e - s))
		return -1;
	for (k = 0; k < gp->n; k++)
		if (fnsum_has_word(buf, s, e, gp->name[k], gp->len[k]))
			return gp->idx[k];
	return -1;
}

/* Do the flags BUF[S..E) allow direct reclaim (what a '~' clears aside)? */
static int sleeping_text(const char *buf, size_t s, size_t e)
{
	char *t, *tilde;
	int yes;

	if (!mem_find(buf + s, e - s, "GFP", 3))
		return 0;
	t = xstrndup(buf + s, e - s);
	tilde = strchr(t, '~');
	if (tilde)
		*tilde = 0;
	yes = gfp_text_may_sleep(t);
	free(t);
	return yes;
}

/*
 * Flags BUF[S..E) that allow direct reclaim only on some paths: a choice
 * (`cond ? GFP_KERNEL : GFP_ATOMIC`) or a name that does not.
 */
static int mixed_text(const char *buf, size_t s, size_t e)
{
	return memchr(buf + s, '?', e - s) ||
	       mem_find(buf + s, e - s, "GFP_ATOMIC", 10) ||
	       mem_find(buf + s, e - s, "GFP_NOWAIT", 10);
}

void fnsum_gfp_call(const char *buf, size_t len, size_t paren, const char *p,
		    size_t n, unsigned line, const struct gfp_params *gp,
		    const struct alloc_table *allocs, struct fn_summary *f,
		    size_t *cap)
{
	const struct alloc_fn *a = allocs ? alloc_lookup(allocs, p, n) : NULL;
	size_t i, start = paren + 1;
	int depth = 0, arg = 0, from;

	if (a && a->kind != AK_ALLOC)
		return;
	for (i = start; i < len && i - paren < 4096; i++) {
		char c = buf[i];

		if (c == '(' || c == '[' || c == '{') {
			depth++;
			continue;
		}
		if ((c == ')' || c == ']' || c == '}') && depth) {
			depth--;
			continue;
		}
		if (c == '"' || c == '\'') {
			for (i++; i < len && buf[i] != c && buf[i] != '\n'; i++)
				i += buf[i] == '\\';
			continue;
		}
		if ((c != ',' && c != ')') || depth)
			continue;
		from = gp->n ? forwards(gp, buf, start, i) : -1;
		if (from >= 0 && a && a->gfp_arg == arg) {
			/* the base case: an allocator gets the flags */
			if (!f->gfp_sleeps)
				f->gfp_sleeps =
					xasprintf("%d %.*s() at line %u", from,
						  (int)n, p, line);
		} else if (from >= 0 && !a) {
			char *e = xasprintf("%.*s/%d>%d", (int)n, p, arg, from);

			fnsum_add_name(&f->gfp_calls, cap, e, strlen(e));
			free(e);
		} else if (from < 0 && !a && sleeping_text(buf, start, i)) {
			/* `?`: only some of its values do (cond ? K : ATOMIC) */
			char *e = xasprintf("%.*s/%d@%u%s", (int)n, p, arg, line,
					    mixed_text(buf, start, i) ? "?" : "");

			fnsum_add_name(&f->gfp_calls, cap, e, strlen(e));
			free(e);
		}
		if (c == ')')
			break;
		arg++;
		start = i + 1;
	}
}
