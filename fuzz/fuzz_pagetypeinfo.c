// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: parse_pagetypeinfo() over arbitrary bytes. */
#include <stddef.h>
#include <stdint.h>

#include "allocator/procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct frag_info fi;
	struct parse_error err;

	frag_info_init(&fi);
	parse_pagetypeinfo((const char *)data, size, &fi, &err);
	return 0;
}
