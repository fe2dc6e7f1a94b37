/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_OWNER_WRAPFREE_H
#define GFPAUDIT_OWNER_WRAPFREE_H

#include "analyzer/lexscan.h"
#include "analyzer/walker.h"

/*
 * A place as a free names it, in place: blanks and leading casts
 * dropped, every index written `[]` (`(unsigned long) d->pg[i]` is
 * `d->pg[]`), so that the store and the free compare as text.
 */
void place_norm(char *t);

/*
 * ROOT, the text a name of a place stands for, joined with the REST of
 * the place: `&d->tb` and `->buf` give `d->tb.buf`.  Malloc'd.
 */
char *place_join(const char *root, const char *rest);

/*
 * Does the call at token CALL, to a function defined in this file,
 * free one of the N places NAMES (place_norm'd, as the caller names
 * them)?  The index of the one it frees, or -1.  Its body's frees are read with its parameters replaced by the
 * call's arguments and its locals by what they were set from
 * (`attrs = desc->sysfs_attrs; kfree(attrs)` frees the caller's
 * `desc->sysfs_attrs` when called as `f(dev, desc)`).  A teardown helper
 * is how most error paths free what a function stored.
 */
int wrapper_frees(struct walk_ctx *w, long call, char **names, int n);

#endif
