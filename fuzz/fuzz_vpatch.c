// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the patch reader `gfpaudit validate` uses
 * (patches/vpatch.c): diff headers, git's quoted paths, hunk counts,
 * removed #defines.  Every path it accepts must be safe to create under
 * a scratch directory.
 */
#include "lib/util.h"
#include "patches/validate.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = xstrndup((const char *)data, size), err[256];
	struct vpatch v;
	int i;

	memset(&v, 0, sizeof(v));
	if (vpatch_parse(buf, &v, err, sizeof(err)) == 0) {
		for (i = 0; i < v.npaths; i++) {
			if (!path_is_safe_relative(v.paths[i]))
				abort();
			vpatch_touches_line(&v, i, 1);
		}
	}
	vpatch_free(&v);
	free(buf);
	return 0;
}
