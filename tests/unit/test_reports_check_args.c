// SPDX-License-Identifier: GPL-2.0
/* Unit tests for cli/check_args.c: sorting kbuild's checker argv. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cli/check_args.h"

#include <stdlib.h>
#include <string.h>

/*
 * What kbuild 6.1 passed to CHECK for fs/proc/base.c on x86 defconfig
 * (recorded with a CHECK= script; abridged only where flags repeat).
 */
static char *kbuild_argv[] = {
	"check", "--db", "/tmp/x.db",
	"-D__linux__", "-Dlinux", "-D__STDC__", "-Dunix", "-D__unix__",
	"-Wbitwise", "-Wno-return-void", "-Wno-unknown-attribute",
	"-D__x86_64__", "--arch=x86", "-mlittle-endian", "-m64",
	"-Wp,-MMD,fs/proc/.base.o.d", "-nostdinc", "-I./arch/x86/include",
	"-I./arch/x86/include/generated", "-I./include",
	"-include", "./include/linux/compiler-version.h",
	"-include", "./include/linux/kconfig.h",
	"-D__KERNEL__", "-fmacro-prefix-map=./=", "-Wall", "-Wundef",
	"-Werror=strict-prototypes", "-fno-strict-aliasing", "-fno-common",
	"-fshort-wchar", "-fno-PIE", "-std=gnu11", "-mno-sse", "-mno-red-zone",
	"-mcmodel=kernel", "-falign-jumps=1", "-falign-loops=1",
	"-mno-80387", "-mpreferred-stack-boundary=3", "-mskip-rax-setup",
	"-mindirect-branch=thunk-extern", "-mindirect-branch-register",
	"-mindirect-branch-cs-prefix", "-mfunction-return=thunk-extern",
	"-O2", "-fno-allow-store-data-races", "-Wframe-larger-than=2048",
	"-fstack-protector-strong", "-ftrivial-auto-var-init=zero",
	"-Werror", "-fconserve-stack", "-Werror=date-time",
	"-DKBUILD_MODFILE=\"fs/proc/proc\"", "-DKBUILD_BASENAME=\"base\"",
	"-DKBUILD_MODNAME=\"proc\"", "-D__KBUILD_MODNAME=kmod_proc",
	"fs/proc/base.c",
};

static int has(const struct check_args *a, const char *flag)
{
	int i;

	for (i = 0; i < a->nclang; i++)
		if (!strcmp(a->clang[i], flag))
			return 1;
	return 0;
}

static void test_kbuild_argv(void **state)
{
	int argc = (int)(sizeof(kbuild_argv) / sizeof(kbuild_argv[0]));
	const char *bad, *why;
	struct check_args a;
	int i;

	(void)state;
	assert_int_equal(check_parse_argv(argc, kbuild_argv, &a, &bad, &why),
			 0);
	assert_string_equal(a.db, "/tmp/x.db");
	assert_int_equal(a.nfiles, 1);
	assert_string_equal(a.files[0], "fs/proc/base.c");
	assert_string_equal(a.arch, "x86");
	/* Kept: what decides preprocessing and parsing. */
	assert_true(has(&a, "-D__KERNEL__"));
	assert_true(has(&a, "-I./include"));
	assert_true(has(&a, "-nostdinc"));
	assert_true(has(&a, "-std=gnu11"));
	assert_true(has(&a, "-m64"));
	assert_true(has(&a, "-O2"));
	assert_true(has(&a, "-mcmodel=kernel"));
	assert_true(has(&a, "-fshort-wchar"));
	assert_true(has(&a, "-DKBUILD_MODNAME=\"proc\""));
	assert_true(has(&a, "--target=x86_64-linux-gnu"));
	/* -include keeps its value, in order. */
	for (i = 0; i < a.nclang; i++)
		if (!strcmp(a.clang[i], "-include"))
			break;
	assert_true(i + 1 < a.nclang);
	assert_string_equal(a.clang[i + 1],
			    "./include/linux/compiler-version.h");
	/* Dropped: sparse's, warnings, gcc-only, dependency output. */
	assert_false(has(&a, "-Wbitwise"));
	assert_false(has(&a, "--arch=x86"));
	assert_false(has(&a, "-mlittle-endian"));
	assert_false(has(&a, "-D__STDC__"));
	assert_false(has(&a, "-Wp,-MMD,fs/proc/.base.o.d"));
	assert_false(has(&a, "-Werror"));
	assert_false(has(&a, "-fconserve-stack"));
	assert_false(has(&a, "-mindirect-branch=thunk-extern"));
	assert_false(has(&a, "-mpreferred-stack-boundary=3"));
	assert_false(has(&a, "-ftrivial-auto-var-init=zero"));
	assert_false(has(&a, "-fno-allow-store-data-races"));
	assert_false(has(&a, "--db"));
	assert_false(has(&a, "/tmp/x.db"));
	/* Each argument kept or dropped, but for argv[0], --db x, the file;
	 * plus the --target added. */
	assert_int_equal(a.nclang + a.ndropped, argc - 1 - 2 - 1 + 1);
	check_args_release(&a);
}

static void test_outputs_dropped_with_value(void **state)
{
	char *argv[] = { "check", "-o", "x.o", "-MF", "dep.d", "-MT", "t",
			 "-c", "-MD", "-oy.o", "-g", "-I", "inc", "-D", "A=1",
			 "a.c", "b.c" };
	const char *bad, *why;
	struct check_args a;

	(void)state;
	assert_int_equal(check_parse_argv(17, argv, &a, &bad, &why), 0);
	assert_int_equal(a.nclang, 4);
	assert_string_equal(a.clang[0], "-I");
	assert_string_equal(a.clang[1], "inc");
	assert_string_equal(a.clang[2], "-D");
	assert_string_equal(a.clang[3], "A=1");
	assert_int_equal(a.nfiles, 2);
	assert_string_equal(a.db, "gfpaudit.db");
	check_args_release(&a);
}

static void test_target_from_arch(void **state)
{
	char *arm[] = { "check", "--arch=arm64", "-m64", "a.c" };
	char *given[] = { "check", "--arch=arm64", "--target=foo", "a.c" };
	char *x32[] = { "check", "--arch=x86", "-m32", "a.c" };
	const char *bad, *why;
	struct check_args a;

	(void)state;
	assert_int_equal(check_parse_argv(4, arm, &a, &bad, &why), 0);
	assert_true(has(&a, "--target=aarch64-linux-gnu"));
	check_args_release(&a);
	assert_int_equal(check_parse_argv(4, given, &a, &bad, &why), 0);
	assert_true(has(&a, "--target=foo"));
	assert_int_equal(a.nclang, 1);
	check_args_release(&a);
	assert_int_equal(check_parse_argv(4, x32, &a, &bad, &why), 0);
	assert_true(has(&a, "--target=i386-linux-gnu"));
	check_args_release(&a);
}

static void test_errors(void **state)
{
	char *nofile[] = { "check", "--db", "x.db", "-DA" };
	char *nodb[] = { "check", "--db" };
	char *emptydb[] = { "check", "--db=", "a.c" };
	char *noval[] = { "check", "a.c", "-include" };
	char *stdin_[] = { "check", "-" };
	const char *bad, *why;
	struct check_args a;

	(void)state;
	assert_int_equal(check_parse_argv(4, nofile, &a, &bad, &why), -1);
	assert_string_equal(why, "no source file given");
	assert_int_equal(check_parse_argv(2, nodb, &a, &bad, &why), -1);
	assert_string_equal(bad, "--db");
	assert_int_equal(check_parse_argv(3, emptydb, &a, &bad, &why), -1);
	assert_int_equal(check_parse_argv(3, noval, &a, &bad, &why), -1);
	assert_string_equal(bad, "-include");
	assert_int_equal(check_parse_argv(2, stdin_, &a, &bad, &why), -1);
	assert_int_equal(check_parse_argv(1, stdin_, &a, &bad, &why), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kbuild_argv),
		cmocka_unit_test(test_outputs_dropped_with_value),
		cmocka_unit_test(test_target_from_arch),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
