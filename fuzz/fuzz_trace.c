// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the kmem trace line parser under both pfn formats and
 * both migratetype numberings (the first byte picks the kernel), and the
 * whole-buffer driver.
 */
#include <stddef.h>
#include <stdint.h>

#include "allocator/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const versions[] = {"3.10", "4.13", "5.14", "6.1"};
	struct trace_format fmt;
	struct trace_events ev;
	struct trace_event e;
	const char *why;

	if (!size)
		return 0;
	trace_format_for(versions[data[0] & 3], &fmt);
	trace_parse_line((const char *)data + 1, size - 1, &fmt, &e, &why);
	if (trace_parse((const char *)data + 1, size - 1, versions[data[0] & 3],
			&ev) == 0)
		trace_events_free(&ev);
	return 0;
}
