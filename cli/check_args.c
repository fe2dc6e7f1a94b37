// SPDX-License-Identifier: GPL-2.0
/*
 * Sorting kbuild's checker command line (see check_args.h).  The tables
 * name what is dropped; everything else is handed to libclang unchanged.
 */
#include "cli/check_args.h"
#include "lib/karch.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

/* Flags that take the next argument as their value (when not joined). */
static const char *const with_value[] = {
	"-I", "-D", "-U", "-include", "-imacros", "-isystem", "-idirafter",
	"-iquote", "-iprefix", "-iwithprefix", "-iwithprefixbefore",
	"-isysroot", "-o", "-MF", "-MT", "-MQ", "-x", "-Xclang",
	"-Xpreprocessor", "-target", "--param", "-gcc-base-dir",
	"-multiarch-dir", "-aux-info", NULL,
};

/* Dropped with their value: outputs, dependency files, sparse options. */
static const char *const drop_with_value[] = {
	"-o", "-MF", "-MT", "-MQ", "--param", "-gcc-base-dir",
	"-multiarch-dir", "-aux-info", NULL,
};

/*
 * Dropped by prefix (and never a joined -D/-I/-U value: those start with
 * none of these).  Sparse-only: -W... (sparse's warnings, and every
 * gcc warning: warnings change no parse, and -Werror would turn clang's
 * own warnings into failures), --arch=, -m{little,big}-endian, -f options
 * of sparse.  gcc-only flags clang 14 rejects: seen in 6.1 x86/arm64
 * builds.  Outputs: -c, -S, -E, -M*, -g*, -pipe, -save-temps.
 */
static const char *const drop_prefix[] = {
	"-W", "-w", "--arch=", "-mlittle-endian", "-mbig-endian",
	"-fdump-", "-fmemcpy-max-count=", "-fdiagnostic-prefix",
	"-fmax-warnings=", "-fno-dump-",
	"-fconserve-stack", "-fno-allow-store-data-races",
	"-fallow-store-data-races", "-mfunction-return=", "-mindirect-branch",
	"-mpreferred-stack-boundary=", "-ftrivial-auto-var-init=",
	"-falign-jumps=", "-falign-loops=", "-falign-labels=",
	"-fno-var-tracking", "-fvar-tracking", "-fno-ipa-", "-fipa-",
	"-fno-tree-", "-ftree-", "-fno-partial-inlining",
	"-fno-inline-functions-called-once", "-fsched-pressure",
	"-fno-reorder-blocks", "-fno-schedule-insns", "-fno-code-hoisting",
	"-mno-fdpic", "-fzero-call-used-regs=", "-fmin-function-alignment=",
	"-fplugin", "-fno-unit-at-a-time", "-mabi=lp64", "-mno-outline-atomics",
	"-fsanitize-coverage=trace-pc", "-fno-gcse", "-mrecord-mcount",
	"-g", "-pipe", "-save-temps", NULL,
};

/* Dropped when the whole argument is one of these. */
static const char *const drop_exact[] = {
	"-c", "-S", "-E", "-M", "-MM", "-MD", "-MMD", "-MP", "-MG",
	/* clang predefines __STDC__; redefining it only warns. */
	"-D__STDC__", NULL,
};

static int in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return 1;
	return 0;
}

static int has_prefix_in(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (str_has_prefix(s, *list))
			return 1;
	return 0;
}

int check_flag_dropped(const char *arg)
{
	if (in_list(drop_exact, arg) || in_list(drop_with_value, arg) ||
	    has_prefix_in(drop_prefix, arg))
		return 1;
	/* Some other driver's long option: not ours to pass on. */
	return str_has_prefix(arg, "--") && !str_has_prefix(arg, "--target=") &&
	       !str_has_prefix(arg, "--sysroot=") &&
	       !str_has_prefix(arg, "--gcc-toolchain=");
}

static int own_option(const char *arg, const char *name, int argc,
		      char *const argv[], int *i, const char **val)
{
	size_t n = strlen(name);

	if (!strcmp(arg, name)) {
		if (*i + 1 >= argc)
			return -1;
		*val = argv[++*i];
		return 1;
	}
	if (!strncmp(arg, name, n) && arg[n] == '=') {
		*val = arg + n + 1;
		return 1;
	}
	return 0;
}

/* A flag whose value is the next argument (not joined to it). */
static int takes_value(const char *arg)
{
	return in_list(with_value, arg);
}

/* -oFILE, -MFFILE, -MTx, -MQx: outputs with a joined value. */
static int drop_joined(const char *arg)
{
	static const char *const out[] = { "-o", "-MF", "-MT", "-MQ", NULL };
	const char *const *o;

	for (o = out; *o; o++)
		if (str_has_prefix(arg, *o) && arg[strlen(*o)])
			return 1;
	return 0;
}

int check_parse_argv(int argc, char *const argv[], struct check_args *a,
		     const char **bad, const char **why)
{
	int i, bits = 0, has_target = 0, r;
	const char *target;

	memset(a, 0, sizeof(*a));
	a->db = "gfpaudit.db";
	a->clang = xcalloc((size_t)argc + 2, sizeof(char *));
	a->files = xcalloc((size_t)argc + 1, sizeof(char *));
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];

		*bad = arg;
		r = own_option(arg, "--db", argc, argv, &i, &a->db);
		if (!r)
			r = own_option(arg, "--tree", argc, argv, &i, &a->tree);
		if (r < 0) {
			*why = "needs a value";
			goto fail;
		}
		if (r > 0) {
			if (!*a->db || (a->tree && !*a->tree)) {
				*why = "needs a non-empty value";
				goto fail;
			}
			continue;
		}
		if (!strcmp(arg, "--verbose")) {
			a->verbose = 1;
			continue;
		}
		if (!strcmp(arg, "-")) {
			*why = "reading the source from stdin is not supported";
			goto fail;
		}
		if (arg[0] != '-') {
			a->files[a->nfiles++] = arg;
			continue;
		}
		if (str_has_prefix(arg, "--arch="))
			a->arch = arg + 7;
		if (!strcmp(arg, "-m64"))
			bits = 64;
		else if (!strcmp(arg, "-m32") || !strcmp(arg, "-mx32"))
			bits = 32;
		if (str_has_prefix(arg, "--target=") || !strcmp(arg, "-target"))
			has_target = 1;
		if (takes_value(arg)) {
			if (i + 1 >= argc) {
				*why = "needs a value";
				goto fail;
			}
			if (in_list(drop_with_value, arg)) {
				a->ndropped++;
				i++;
				continue;
			}
			a->clang[a->nclang++] = arg;
			a->clang[a->nclang++] = argv[++i];
			continue;
		}
		if (drop_joined(arg) || check_flag_dropped(arg)) {
			a->ndropped++;
			continue;
		}
		a->clang[a->nclang++] = arg;
	}
	if (!a->nfiles) {
		*bad = argc > 1 ? argv[argc - 1] : "check";
		*why = "no source file given";
		goto fail;
	}
	target = has_target ? NULL : karch_target_option(a->arch, bits);
	if (target)
		a->clang[a->nclang++] = target;
	*bad = *why = NULL;
	return 0;
fail:
	check_args_release(a);
	return -1;
}

void check_args_release(struct check_args *a)
{
	free(a->clang);
	free(a->files);
	a->clang = NULL;
	a->files = NULL;
	a->nclang = a->nfiles = 0;
}
