// SPDX-License-Identifier: GPL-2.0
/* Unit tests for lib/karch.c: the kernel arch table and its lookups. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "lib/karch.h"

#include <string.h>

/* Every arch of the table, by name, from the table itself. */
static const char *const names[] = {
#define NAME(n, ...) #n,
	KARCH_TABLE(NAME)
#undef NAME
};

#define N_NAMES (sizeof(names) / sizeof(names[0]))

static void test_every_arch_has_a_triple(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < N_NAMES; i++) {
		const char *t = karch_triple(names[i]);

		assert_true(karch_known(names[i]));
		assert_non_null(t);
		/* a clang triple: ARCH-linux-ENV */
		assert_non_null(strstr(t, "-linux-"));
		assert_non_null(karch_target_option(names[i], 0));
		assert_string_equal(karch_target_option(names[i], 0) + 9, t);
		/* the list an unknown --arch prints names it */
		assert_non_null(strstr(karch_list(0), names[i]));
	}
}

static void test_triples(void **state)
{
	(void)state;
	assert_string_equal(karch_triple("x86"), "x86_64-linux-gnu");
	assert_string_equal(karch_triple("arm64"), "aarch64-linux-gnu");
	assert_string_equal(karch_triple("powerpc"), "powerpc64le-linux-gnu");
	/* kbuild's CLANG_TARGET_FLAGS_mips (scripts/Makefile.clang) */
	assert_string_equal(karch_triple("mips"), "mipsel-linux-gnu");
	assert_null(karch_triple("nosucharch"));
	assert_null(karch_triple(""));
	assert_null(karch_triple(NULL));
	/* aliases are check's, not scan's */
	assert_null(karch_triple("x86_64"));
	assert_false(karch_known("x86_64"));
	assert_true(karch_known_alias("x86_64"));
	assert_false(karch_known_alias("alpha"));
}

static void test_target_option(void **state)
{
	(void)state;
	assert_string_equal(karch_target_option("x86", 32),
			    "--target=i386-linux-gnu");
	assert_string_equal(karch_target_option("x86", 64),
			    "--target=x86_64-linux-gnu");
	assert_string_equal(karch_target_option("mips", 64),
			    "--target=mips64el-linux-gnuabi64");
	assert_string_equal(karch_target_option("mips", 32),
			    "--target=mipsel-linux-gnu");
	/* a 64-bit-only arch has no 32-bit kernel */
	assert_null(karch_target_option("arm64", 32));
	assert_null(karch_target_option("s390", 32));
	/* a 32-bit-only arch has its one triple */
	assert_string_equal(karch_target_option("arm", 64),
			    "--target=arm-linux-gnueabi");
	/* an alias's word size wins over -m */
	assert_string_equal(karch_target_option("i386", 64),
			    "--target=i386-linux-gnu");
	assert_string_equal(karch_target_option("x86_64", 0),
			    "--target=x86_64-linux-gnu");
	assert_string_equal(karch_target_option("aarch64", 0),
			    "--target=aarch64-linux-gnu");
	assert_null(karch_target_option("nosucharch", 64));
	assert_null(karch_target_option(NULL, 0));
}

static void test_host_table(void **state)
{
	static const char *const want[][2] = {
		{ "x86_64", "x86" },	 { "i686", "x86" },
		{ "i386", "x86" },	 { "aarch64", "arm64" },
		{ "armv7l", "arm" },	 { "armv6l", "arm" },
		{ "riscv64", "riscv" },	 { "s390x", "s390" },
		{ "s390", "s390" },	 { "ppc64le", "powerpc" },
		{ "ppc", "powerpc" },	 { "mips", "mips" },
		{ "mips64", "mips" },	 { "sparc64", "sparc" },
		{ "loongarch64", "loongarch" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const char *a = karch_of_machine(want[i][0]);

		assert_non_null(a);
		assert_string_equal(a, want[i][1]);
		assert_true(karch_known(a));
	}
	assert_null(karch_of_machine("alpha"));
	assert_null(karch_of_machine("i86"));
	assert_null(karch_of_machine(NULL));
	assert_non_null(karch_host());
}

static void test_list(void **state)
{
	(void)state;
	assert_true(!strncmp(karch_list(0), "arm, arm64, ", 12));
	assert_non_null(strstr(karch_list(0), ", x86"));
	assert_null(strstr(karch_list(0), "x86_64"));
	assert_non_null(strstr(karch_list(1), karch_list(0)));
	assert_non_null(strstr(karch_list(1), ", x86_64"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_arch_has_a_triple),
		cmocka_unit_test(test_triples),
		cmocka_unit_test(test_target_option),
		cmocka_unit_test(test_host_table),
		cmocka_unit_test(test_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
