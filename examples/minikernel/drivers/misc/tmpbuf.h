/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TMPBUF_H
#define _TMPBUF_H

#include <linux/slab.h>

/* An allocator macro in a header: its callers elsewhere are sites too. */
#define tmpbuf_zalloc(sz, gfp) kzalloc((sz), (gfp) | __GFP_ZERO)

#endif
