// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: `gfpaudit check` argv sorting (cli/check_args.c).
 * The input is split at newlines into argv after "check".  Besides
 * crashes and sanitizer reports, checks the invariants: every argument is
 * kept, dropped, a file or one of our options, and what is kept comes
 * from argv (or is a --target= we add).
 */
#include "cli/check_args.h"
#include "lib/util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = xstrndup((const char *)data, size), *p, **argv;
	struct check_args a;
	const char *bad, *why;
	int argc = 1, i, j;

	for (p = buf; *p; p++)
		argc += *p == '\n';
	argv = xcalloc((size_t)argc + 2, sizeof(char *));
	argv[0] = "check";
	argc = 1;
	for (p = strtok(buf, "\n"); p; p = strtok(NULL, "\n"))
		argv[argc++] = p;
	if (check_parse_argv(argc, argv, &a, &bad, &why) == 0) {
		if (a.nfiles < 1 || a.nclang + a.ndropped + a.nfiles > argc)
			abort();
		for (i = 0; i < a.nclang; i++) {
			int found = !strncmp(a.clang[i], "--target=", 9);

			for (j = 1; !found && j < argc; j++)
				found = a.clang[i] == argv[j];
			if (!found)
				abort();
		}
		check_args_release(&a);
	} else if (!bad || !why) {
		abort();
	}
	free(argv);
	free(buf);
	return 0;
}
