/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_OWNER_ERRPATH_H
#define GFPAUDIT_OWNER_ERRPATH_H

#include "analyzer/owner.h"
#include "analyzer/walker.h"

/*
 * R is `stored` or `returned` and not held across a sleep up to its
 * store: held across one all the same when a call that may sleep comes
 * after the allocation and the function frees the buffer on a path from
 * that call (an error path: `goto err; ... err: kfree(p);`).  The
 * function holds it until it can no longer free it (the labels'
 * convention, docs/classifiers.md).  Sets R's answer, its evidence, and
 * the base of its held_calls for the summaries step.
 */
void errpath_sleep(struct walk_ctx *w, const struct site *s,
		   struct owner *r);

#endif
