/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_CHECK_ARGS_H
#define GFPAUDIT_CHECK_ARGS_H

/*
 * The argv of `gfpaudit check`, as kbuild passes it to its checker:
 *	$(CHECK) $(CHECKFLAGS) $(c_flags) file.c
 * i.e. our own options (--db FILE, --tree DIR), sparse's options
 * (-Wbitwise, --arch=x86, -mlittle-endian, ...), then gcc's flags and the
 * file.  check_parse_argv() sorts them, without I/O or allocation other
 * than the two arrays, so that it can be fuzzed:
 *  - flags libclang needs for the same preprocessing and parse as the
 *    compiler (-D, -U, -I, -include, -std, -m64, -O2, -f...) go to clang[];
 *  - sparse-only flags, warnings (all -W..., so -Werror cannot turn a
 *    clang warning into a failed parse, and -Wp,-MMD cannot make libclang
 *    write gcc's dependency file), output/dependency options, debug
 *    options and the gcc-only flags clang rejects are dropped;
 *  - sparse's --arch=ARCH with -m32/-m64 becomes a --target= for clang
 *    when the command line has none (the table: lib/karch.h).
 */
struct check_args {
	const char *db;	    /* --db FILE (default ./gfpaudit.db) */
	const char *tree;   /* --tree DIR, else NULL (caller decides) */
	const char *arch;   /* sparse's --arch=, e.g. "x86", or NULL */
	const char **clang; /* flags for libclang, in order */
	int nclang;
	const char **files; /* the source files (kbuild: exactly one) */
	int nfiles;
	int ndropped;	    /* flags dropped */
	int verbose;	    /* --verbose: list what was dropped */
};

/*
 * Parse ARGV[1..ARGC-1] (argv[0] is "check").  Returns 0, or -1 with *bad
 * set to the argument at fault and *why to a constant message.  The
 * strings in A point into ARGV or are constants.
 */
int check_parse_argv(int argc, char *const argv[], struct check_args *a,
		     const char **bad, const char **why);
void check_args_release(struct check_args *a);

/* 1 when check_parse_argv() drops ARG (a flag without its value). */
int check_flag_dropped(const char *arg);

#endif
