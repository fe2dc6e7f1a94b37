// SPDX-License-Identifier: GPL-2.0
/*
 * Which reader a trace file needs, told by its first bytes: users name
 * trace.dat files anything, and text traces come from pipes and process
 * substitutions that have no name worth trusting.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "allocator/trace.h"

enum trace_input_kind trace_input_kind(const unsigned char *head, size_t n)
{
	/* trace-cmd's magic (lib/trace-cmd/trace-output.c): 0x17 0x08 'D' */
	static const unsigned char dat[] = {0x17, 0x08, 0x44, 't', 'r',
					    'a',  'c',	'i',  'n', 'g'};

	if (n >= sizeof(dat) && !memcmp(head, dat, sizeof(dat)))
		return TRACE_DAT;
	/* tools/perf/util/header.c: "PERFILE2" (v2, also pipe mode), v1 */
	if (n >= 8 &&
	    (!memcmp(head, "PERFILE2", 8) || !memcmp(head, "PERFFILE", 8)))
		return TRACE_PERF_DATA;
	return TRACE_TEXT;
}

int trace_read(const char *path, const char *version, struct trace_events *ev)
{
	unsigned char head[16];
	size_t n;
	FILE *f;
	int rc;

	memset(ev, 0, sizeof(*ev));
	f = fopen(path, "r");
	if (!f) {
		snprintf(ev->error, sizeof(ev->error), "%s", strerror(errno));
		return -1;
	}
	n = fread(head, 1, sizeof(head), f);
	if (ferror(f)) {
		snprintf(ev->error, sizeof(ev->error), "%s", strerror(errno));
		fclose(f);
		return -1;
	}
	switch (trace_input_kind(head, n)) {
	case TRACE_DAT:
		/* libtracecmd seeks through the file: it opens it itself */
		fclose(f);
		return trace_dat_read(path, version, ev);
	case TRACE_PERF_DATA:
		fclose(f);
		snprintf(ev->error, sizeof(ev->error),
			 "a perf.data file; gfpaudit reads its text: `perf "
			 "script --header -i %.48s > trace.txt`, then --trace "
			 "trace.txt",
			 path);
		return -1;
	default:
		break;
	}
	rc = trace_parse_stream(f, (const char *)head, n, version, ev);
	fclose(f);
	return rc;
}
