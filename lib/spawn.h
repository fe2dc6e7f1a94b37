/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_SPAWN_H
#define GFPAUDIT_SPAWN_H

#include "lib/util.h"

/*
 * Run argv[0] (looked up in PATH) with an argv array — never through a
 * shell.  cwd may be NULL.  When out/err are non-NULL the child's stdout /
 * stderr are captured into them; otherwise they are inherited (or sent to
 * /dev/null when quiet is set).  stdin_data, when non-NULL, is fed to the
 * child's stdin.  Returns the exit status (0..255), 128+signal when the
 * child was killed, or -1 when it could not be started (errno set).
 */
struct spawn_opts {
	const char *cwd;
	struct strbuf *out;
	struct strbuf *err;
	const char *stdin_data;
	size_t stdin_len;
	int quiet;
	char *const *envp; /* NULL: inherit */
};

int run_argv(char *const argv[], const struct spawn_opts *opts);

/* 1 when `name` is an executable found in PATH. */
int have_program(const char *name);

#endif
