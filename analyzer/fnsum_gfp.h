/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_FNSUM_GFP_H
#define GFPAUDIT_FNSUM_GFP_H

/*
 * Sleeps that a gfp_t argument decides.  A function that hands its own
 * gfp_t parameter to an allocator (`request_firmware_nowait(..., gfp,
 * ...)` kzalloc()s with it, usb_submit_urb() hands its mem_flags down)
 * sleeps when, and only when, its caller passes flags that allow direct
 * reclaim: neither "sleeps" nor "does not".  fnsum.c reads, per
 * function, which parameter that is (fn_summary.gfp_sleeps, the base
 * case) and which calls pass on a parameter or sleeping flags
 * (fn_summary.gfp_calls); the summaries step (summaries_gfp.c) solves
 * the rest over the call graph.
 */

#include "analyzer/fnsum.h"
#include "analyzer/tables.h"

#include <stddef.h>

#define GFP_MAX_PARAMS 4

/* The gfp_t parameters of the function being read: name and position. */
struct gfp_params {
	const char *name[GFP_MAX_PARAMS];
	size_t len[GFP_MAX_PARAMS];
	int idx[GFP_MAX_PARAMS];
	int n;
};

/*
 * The gfp_t parameters of the function whose name is at BUF[DECL], its
 * body's `{` at BUF[OPEN].
 */
void fnsum_gfp_params(const char *buf, size_t decl, size_t open,
		      struct gfp_params *gp);

/*
 * The call of P[0..N) at LINE whose '(' is BUF[PAREN]: an allocator
 * whose flags argument is a parameter of GP sets F's gfp_sleeps; another
 * call that gets such a parameter (`name/ARG>PARAM`) or flags that allow
 * direct reclaim (`name/ARG@LINE`) goes in F's gfp_calls (CAP: its
 * capacity).  Frees and allocators given constant flags are left to the
 * caller (fn_summary.sleeps).
 */
void fnsum_gfp_call(const char *buf, size_t len, size_t paren, const char *p,
		    size_t n, unsigned line, const struct gfp_params *gp,
		    const struct alloc_table *allocs, struct fn_summary *f,
		    size_t *cap);

#endif
