// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: parse_page_owner() over arbitrary bytes. */
#include <stddef.h>
#include <stdint.h>

#include "allocator/procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct page_owner_stats st;
	struct parse_error err;

	parse_page_owner((const char *)data, size, &st, &err);
	return 0;
}
