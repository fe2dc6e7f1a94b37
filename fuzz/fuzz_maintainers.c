// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the shared MAINTAINERS parser (lib/maintainers.c) and
 * its two users, the patch recipients (patches/maintainers.c) and the
 * report's subsystems (reports/maintainers.c).  The input is the file's
 * text; a few fixed paths and the input's own first line are looked up.
 */
#include "lib/maintainers.h"
#include "lib/util.h"
#include "patches/maintainers.h"
#include "reports/maintainers.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void look_up(const struct maintainers *m, const char *path)
{
	struct addr_list to = { 0 }, cc = { 0 };
	struct maint_match *v;
	size_t n = maintainers_match(m, path, &v), i;
	const struct maint_entry *best = maintainers_best(m, path);
	char buf[64];

	/* The fast path must agree with the full one. */
	if ((n ? maintainers_entry(m, v[0].entry) : NULL) != best)
		abort();
	for (i = 1; i < n; i++)
		if (v[i].depth > v[i - 1].depth)
			abort();
	free(v);
	report_subsystem(m, path, buf, sizeof(buf));
	maintainers_for(m, path, &to, &cc);
	addr_list_free(&to);
	addr_list_free(&cc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const paths[] = { "mm/slab.c", "fs/proc/base.c",
					     "Makefile", "a/b/c/d.h", "" };
	struct maintainers *m = maintainers_parse((const char *)data, size);
	char *first = xstrndup((const char *)data, size);
	size_t i;

	first[strcspn(first, "\n")] = '\0';
	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		look_up(m, paths[i]);
	look_up(m, first);
	maintainers_free(m);
	free(first);
	return 0;
}
