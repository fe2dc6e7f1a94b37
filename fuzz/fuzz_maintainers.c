// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: MAINTAINERS parsing and lookup (reports/
 * maintainers.c).  The input is the file's text; a few fixed paths and
 * the input's own first line are looked up in it.
 */
#include "reports/maintainers.h"
#include "lib/util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const paths[] = { "mm/slab.c", "fs/proc/base.c",
					     "Makefile", "a/b/c/d.h", "" };
	struct maint_index *m = maint_index_parse((const char *)data, size);
	char *first = xstrndup((const char *)data, size);
	size_t i;

	first[strcspn(first, "\n")] = '\0';
	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		maint_index_lookup(m, paths[i]);
	maint_index_lookup(m, first);
	maint_index_free(m);
	free(first);
	return 0;
}
