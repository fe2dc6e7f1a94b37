// SPDX-License-Identifier: GPL-2.0
/* Unit tests for reports/maintainers.c: get_maintainer.pl's matching. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reports/maintainers.h"

#include <string.h>

static const char text[] =
	"List of maintainers and how to submit kernel changes\n"
	"\tF: *Files* and directories wildcard patterns.\n"
	"\n"
	"Maintainers List\n"
	"----------------\n"
	"\n"
	"MEMORY MANAGEMENT\n"
	"M:\tAndrew Morton <akpm@linux-foundation.org>\n"
	"F:\tinclude/linux/gfp.h\n"
	"F:\tinclude/linux/mm*.h\n"
	"F:\tmm/\n"
	"\n"
	"SLAB ALLOCATOR\n"
	"F:\tmm/sl?b*\n"
	"X:\tmm/slob.c\n"
	"\n"
	"PROC FILESYSTEM\r\n"
	"F:\tfs/proc/\r\n"
	"\r\n"
	"PROC SYSCTL\n"
	"F:\tfs/proc/proc_sysctl.c\n"
	"\n"
	"NET DIRECTORY WITHOUT SLASH\n"
	"F:\tnet/core\n"
	"\n"
	"THE REST\n"
	"F:\t*\n"
	"F:\t*/\n";

static struct maint_index *m;

static int setup(void **state)
{
	(void)state;
	m = maint_index_parse(text, strlen(text));
	return m ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	maint_index_free(m);
	return 0;
}

static void test_sections(void **state)
{
	(void)state;
	assert_int_equal(maint_index_count(m), 6);
}

static void test_directory_pattern(void **state)
{
	(void)state;
	assert_string_equal(maint_index_lookup(m, "mm/page_alloc.c"),
			    "MEMORY MANAGEMENT");
	assert_string_equal(maint_index_lookup(m, "mm/kasan/common.c"),
			    "MEMORY MANAGEMENT");
	/* CRLF line ends are tolerated. */
	assert_string_equal(maint_index_lookup(m, "fs/proc/base.c"),
			    "PROC FILESYSTEM");
}

static void test_most_precise_wins(void **state)
{
	(void)state;
	assert_string_equal(maint_index_lookup(m, "fs/proc/proc_sysctl.c"),
			    "PROC SYSCTL");
	/* mm/sl?b* (depth 2) beats mm/ (depth 1). */
	assert_string_equal(maint_index_lookup(m, "mm/slub.c"),
			    "SLAB ALLOCATOR");
}

static void test_exclude(void **state)
{
	(void)state;
	/* X: takes the section out; the next best one remains. */
	assert_string_equal(maint_index_lookup(m, "mm/slob.c"),
			    "MEMORY MANAGEMENT");
}

static void test_file_glob_depth(void **state)
{
	(void)state;
	assert_string_equal(maint_index_lookup(m, "include/linux/mmzone.h"),
			    "MEMORY MANAGEMENT");
	/* A file pattern does not match below its own directory. */
	assert_string_equal(maint_index_lookup(m, "include/linux/mm/x.h"),
			    "THE REST");
	assert_string_equal(maint_index_lookup(m, "include/linux/gfp.h"),
			    "MEMORY MANAGEMENT");
}

static void test_directory_without_slash(void **state)
{
	(void)state;
	assert_string_equal(maint_index_lookup(m, "net/core/dev.c"),
			    "NET DIRECTORY WITHOUT SLASH");
	assert_string_equal(maint_index_lookup(m, "net/corex.c"), "THE REST");
}

static void test_the_rest_and_none(void **state)
{
	struct maint_index *e = maint_index_parse("", 0);

	(void)state;
	assert_string_equal(maint_index_lookup(m, "Makefile"), "THE REST");
	assert_string_equal(maint_index_lookup(m, "kernel/fork.c"),
			    "THE REST");
	assert_null(maint_index_lookup(e, "mm/slab.c"));
	assert_int_equal(maint_index_count(e), 0);
	maint_index_free(e);
}

static void test_garbage(void **state)
{
	static const char junk[] = "F:\n\nX\nF:    \nZ:\tx\n\n\n:F\n\0F:\ta/";
	struct maint_index *g = maint_index_parse(junk, sizeof(junk) - 1);

	(void)state;
	/* Fields before any title are ignored; no crash, no section. */
	assert_null(maint_index_lookup(g, "a/b"));
	maint_index_free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sections),
		cmocka_unit_test(test_directory_pattern),
		cmocka_unit_test(test_most_precise_wins),
		cmocka_unit_test(test_exclude),
		cmocka_unit_test(test_file_glob_depth),
		cmocka_unit_test(test_directory_without_slash),
		cmocka_unit_test(test_the_rest_and_none),
		cmocka_unit_test(test_garbage),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
