// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the analyzer's knowledge files (analyzer/tables.c):
 * data/tracked-flags.txt and sleepers.txt (one identifier a line),
 * allocators.txt (NAME KIND FAMILY GFP_ARG SIZE_ARG [PTR_ARG]), atomic.txt
 * and lifetime.txt (KIND NAME [ARG]).  The first input byte picks the
 * format, the rest is the file's text, read from memory.
 */
#include "analyzer/tables.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void keyed(FILE *fp, const char *const *kinds, int nkinds)
{
	struct name_set out[AT_KINDS > LT_KINDS ? AT_KINDS : LT_KINDS];
	int i;

	for (i = 0; i < nkinds; i++)
		names_init(&out[i]);
	keyed_names_read(fp, "fuzz.txt", kinds, out);
	for (i = 0; i < nkinds; i++)
		names_free(&out[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tracked_flags t;
	struct alloc_table a;
	FILE *fp;

	if (size < 2)
		return 0;
	fp = fmemopen((void *)(data + 1), size - 1, "r");
	if (!fp)
		return 0;
	switch (data[0] % 4) {
	case 0:
		if (tracked_flags_read(fp, "fuzz.txt", &t) == 0) {
			/* Every name is indexed at its position. */
			size_t i;

			for (i = 0; i < t.n; i++)
				if (names_get(&t.set, t.names[i],
					      strlen(t.names[i])) != (int)i)
					abort();
			tracked_flags_free(&t);
		}
		break;
	case 1:
		alloc_table_init(&a);
		allocators_read(fp, "fuzz.txt", &a);
		alloc_table_free(&a);
		break;
	case 2:
		keyed(fp, atomic_kinds, AT_KINDS);
		break;
	default:
		keyed(fp, lifetime_kinds, LT_KINDS);
		break;
	}
	fclose(fp);
	return 0;
}
