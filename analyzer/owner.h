/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_OWNER_H
#define GFPAUDIT_OWNER_H

/*
 * Who owns an allocation after the call: the ownership analysis behind
 * sites.lifetime and sites.held_across_sleep, shared by the classifiers
 * that need it (lifetime, held_across_sleep, wrappers, caches).
 *
 * The allocation's consumer is found first (the variable it is assigned
 * to, a store, a return, a call it is passed to).  A local variable is
 * then followed through the function with the flow engine (flow.h): the
 * states are "not yet allocated", "live", "done" (freed or handed on),
 * "null" (the allocation failed: `if (!p) return -ENOMEM;`) and
 * "escaped" (passed to a function that may keep it).  Aliases (`q = p`)
 * are followed; frees through the tree's free functions and this TU's
 * free wrappers count; data/lifetime.txt says which calls store the
 * object in a data structure and which only borrow it.
 *
 * Precedence of the result: returned (when also stored), leaked_on_path
 * (stored, but an error return is reached with it live on every path
 * there, after its failure test), stored, returned, leaked_on_path (a
 * live path reaches a return), unknown (escaped on a path that returns),
 * scoped (freed or null on every path), unknown (nothing seen).
 */

#include "analyzer/walker.h"

struct owner {
	const char *lifetime;
	char *evidence;
	unsigned line;
	int held_across_sleep; /* 1, 0, -1 unknown */
	char *sleep_evidence;
	char *held_calls; /* site.held_calls */
	char *target; /* stored: what holds it ("dentry_cache", "dev->buf") */
};

/*
 * The site's ownership, computed once per site.  Without an AST for the
 * call (CALL null) it comes from the tokens (owner_lex.h).
 */
const struct owner *owner_of(struct walk_ctx *w, const struct site *s,
			     CXCursor call, CXCursor fn);

#endif
