/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_FNSUM_INT_H
#define GFPAUDIT_FNSUM_INT_H

/*
 * The text reader of fnsum.c and the state of the body it reads, shared
 * with the sections' bookkeeping of fnsum_lock.c.
 */

#include "analyzer/fnsum.h"
#include "analyzer/fnsum_gfp.h"
#include "analyzer/names.h"

#include <stddef.h>
#include <stdint.h>

struct lx {
	const char *b;
	size_t len, i;
	unsigned line;
	int bol; /* nothing but blanks since the line began */
	/*
	 * The file's own lock wrappers ([0] return with an atomic section
	 * open, [1] close one they did not open), or NULL: read like the
	 * data/atomic.txt names they wrap.
	 */
	const struct name_set *wrap;
};

#define MAX_BLOCKS 64

/* The state of the body being read. */
struct body {
	struct fn_summary *f;
	size_t cap, acap, ccap, gcap, ucap;
	struct gfp_params gp; /* its gfp_t parameters */
	int gfp_text;	      /* the file names a GFP_ flag */
	int adepth; /* atomic sections open, as read in order */
	int rel;    /* the same, below 0 once a caller's one is closed */
	/* the locks it took (lock_arg()), so that a leave is its own */
	uint64_t held[16];
	int nheld;
	int opens, closes; /* enter and leave calls, in all */
	int cond;	   /* those not a statement of the body's top level */
	int depth;	   /* braces open at the call, the body's own is 1 */
	size_t decl, open; /* the name's and the body's offsets */
	int blk_adepth[MAX_BLOCKS]; /* adepth at each open block's `{` */
	int blk_rel[MAX_BLOCKS];    /* and rel */
	/*
	 * The last token was a block's `}`: adepth and rel at its `{`, where
	 * an `else` after it starts (a lock taken in the if branch is not
	 * held in the else branch).
	 */
	int closed, else_adepth, else_rel;
};

/*
 * An enter (DIR +1) or leave (-1) call of an atomic section, at P (its
 * '(' at x->i).
 */
void fnsum_section(const struct lx *x, struct body *b, const char *p,
		   int dir);
/* A trylock, or an enter's variant (see fnsum_lock.c): a lock taken. */
int fnsum_other_lock(const struct name_set *enter, const char *p, size_t n);
/*
 * A lock taken that opens no section (a trylock, an enter's variant: the
 * call whose '(' is at x->i): its leave closes no caller's lock.
 */
void fnsum_lock_only(const struct lx *x, struct body *b);
/* Does the block whose `}` is at B[CLOSE] end in a jump? */
int fnsum_block_jumps(const char *b, size_t open, size_t close);

#endif
