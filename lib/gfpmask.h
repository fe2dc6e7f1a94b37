/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_LIB_GFPMASK_H
#define GFPAUDIT_LIB_GFPMASK_H

#include <stddef.h>

/*
 * GFP base masks: the GFP_ names that say by themselves how an allocation
 * may reclaim (GFP_KERNEL, GFP_NOFS, GFP_ATOMIC, GFP_TEMPORARY, ...), as
 * opposed to the modifiers written beside them (__GFP_NOWARN, the zone
 * modifiers GFP_DMA and GFP_DMA32) and the masks that select or clear
 * bits (GFP_CONSTRAINT_MASK, GFP_RECLAIM_MASK, GFP_MOVABLE_MASK).  Only a
 * base mask is something a caller's gfp_t can stand in for.
 */
int gfp_is_base_mask(const char *name, size_t len);

/*
 * The number of base masks among the identifiers of text[0..len)
 * (comments and literals aside); the first one's offset in *off when off
 * is not NULL.
 */
int gfp_count_base_masks(const char *text, size_t len, size_t *off);

#endif
