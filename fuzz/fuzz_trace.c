// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the kmem trace line parser, for trace_pipe and `perf
 * script` lines alike, under both pfn formats and both migratetype
 * numberings (the first byte's low bits pick the kernel), and the
 * whole-buffer driver.  With bit 2 of the first byte set the driver gets
 * no version, so that it reads it from a `perf script --header` "# os
 * release :" line (or assumes 6.1), as `gfpaudit simulate` does without
 * --kernel.
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
	if (trace_parse((const char *)data + 1, size - 1,
			data[0] & 4 ? NULL : versions[data[0] & 3], &ev) == 0)
		trace_events_free(&ev);
	return 0;
}
