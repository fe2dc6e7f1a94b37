/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_FLOW_H
#define GFPAUDIT_FLOW_H

/*
 * A small path-sensitive abstract interpreter over one function body.
 *
 * The state is a bit mask of the abstract values a path may be in (0:
 * unreachable).  The engine knows C's control flow: if/else, loops,
 * switch/case, break/continue, return, and goto (the kernel's error
 * paths): the body is run again while a label receives new states.  A
 * domain (an ownership model, a lock depth) says what the leaf statements
 * and conditions do to the state.
 */

#include <clang-c/Index.h>

struct flow_domain {
	void *ctx;
	/* A leaf statement or expression: its effect on STATE. */
	unsigned (*eval)(void *ctx, CXCursor stmt, unsigned state);
	/*
	 * A condition: the states where it is true and false.  NULL: both
	 * are eval()'s result.
	 */
	void (*branch)(void *ctx, CXCursor cond, unsigned state, unsigned *t,
		       unsigned *f);
	/*
	 * A return statement reached in STATE (its value already
	 * evaluated), or the end of the body (STMT null).  Called once per
	 * round; domains accumulate.
	 */
	void (*ret)(void *ctx, CXCursor stmt, unsigned state);
	/*
	 * Optional: statements to step over (an inactive #if branch kept by
	 * the parse, whose `return` would make the active code look dead).
	 */
	int (*skip)(void *ctx, CXCursor stmt);
	/*
	 * Optional: main-file text [START, END) between two statements of
	 * a block that the AST has nothing for (a statement the parse
	 * dropped); its effect on STATE.
	 */
	unsigned (*gap)(void *ctx, unsigned start, unsigned end,
			unsigned state);
};

struct walk_ctx;

/* Run D over FN's body (a FunctionDecl definition) from state INIT. */
void flow_run(const struct walk_ctx *w, CXCursor fn,
	      const struct flow_domain *d, unsigned init);

#endif
