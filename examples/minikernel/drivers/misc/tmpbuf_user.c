// SPDX-License-Identifier: GPL-2.0
/* Uses the header's allocator macro, learned in the same scan. */
#include "tmpbuf.h"

static void *tmpbuf_user_get(void)
{
	return tmpbuf_zalloc(32, GFP_TEMPORARY);
}
