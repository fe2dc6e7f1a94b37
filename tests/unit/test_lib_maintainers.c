// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lib/maintainers.c, the MAINTAINERS parser the patch
 * series and the report share: get_maintainer.pl's matching.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "lib/maintainers.h"

#include <stdlib.h>
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

static struct maintainers *m;

/* The best entry's title; it must be the first of all the matches. */
static const char *best(const struct maintainers *mm, const char *path)
{
	const struct maint_entry *e = maintainers_best(mm, path);
	struct maint_match *v;
	size_t n = maintainers_match(mm, path, &v);

	if (n)
		assert_ptr_equal(e, maintainers_entry(mm, v[0].entry));
	else
		assert_null(e);
	free(v);
	return e ? e->title : NULL;
}

static int setup(void **state)
{
	(void)state;
	m = maintainers_parse(text, strlen(text));
	return m ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	maintainers_free(m);
	return 0;
}

static void test_sections(void **state)
{
	(void)state;
	assert_int_equal(maintainers_count(m), 6);
}

static void test_directory_pattern(void **state)
{
	(void)state;
	assert_string_equal(best(m, "mm/page_alloc.c"),
			    "MEMORY MANAGEMENT");
	assert_string_equal(best(m, "mm/kasan/common.c"),
			    "MEMORY MANAGEMENT");
	/* CRLF line ends are tolerated. */
	assert_string_equal(best(m, "fs/proc/base.c"),
			    "PROC FILESYSTEM");
}

static void test_most_precise_wins(void **state)
{
	(void)state;
	assert_string_equal(best(m, "fs/proc/proc_sysctl.c"),
			    "PROC SYSCTL");
	/* mm/sl?b* (depth 2) beats mm/ (depth 1). */
	assert_string_equal(best(m, "mm/slub.c"),
			    "SLAB ALLOCATOR");
}

static void test_exclude(void **state)
{
	(void)state;
	/* X: takes the section out; the next best one remains. */
	assert_string_equal(best(m, "mm/slob.c"),
			    "MEMORY MANAGEMENT");
}

static void test_file_glob_depth(void **state)
{
	(void)state;
	assert_string_equal(best(m, "include/linux/mmzone.h"),
			    "MEMORY MANAGEMENT");
	/* A file pattern does not match below its own directory. */
	assert_string_equal(best(m, "include/linux/mm/x.h"),
			    "THE REST");
	assert_string_equal(best(m, "include/linux/gfp.h"),
			    "MEMORY MANAGEMENT");
}

static void test_directory_without_slash(void **state)
{
	(void)state;
	assert_string_equal(best(m, "net/core/dev.c"),
			    "NET DIRECTORY WITHOUT SLASH");
	assert_string_equal(best(m, "net/corex.c"), "THE REST");
}

static void test_the_rest_and_none(void **state)
{
	struct maintainers *e = maintainers_parse("", 0);

	(void)state;
	assert_string_equal(best(m, "Makefile"), "THE REST");
	assert_string_equal(best(m, "kernel/fork.c"),
			    "THE REST");
	assert_null(best(e, "mm/slab.c"));
	assert_int_equal(maintainers_count(e), 0);
	maintainers_free(e);
}

static void test_garbage(void **state)
{
	static const char junk[] = "F:\n\nX\nF:    \nZ:\tx\n\n\n:F\n\0F:\ta/";
	struct maintainers *g = maintainers_parse(junk, sizeof(junk) - 1);

	(void)state;
	/* Fields before any title are ignored; no crash, no section. */
	assert_null(best(g, "a/b"));
	maintainers_free(g);
}

static const char people[] =
	"INTRO\n"
	"\n"
	"ZSWAP\n"
	"M:\tA Person <a@x.org>\n"
	"M:\tB Person <b@x.org>\n"
	"R:\tC Review <c@x.org>\n"
	"L:\tlinux-mm@kvack.org (moderated for non-subscribers)\n"
	"S:\tMaintained\n"
	"F:mm/zswap.c\n"
	"K:\tzswap\n"
	"\n"
	"TRACING FLAGS\n"
	"N:\tmmflags\n"
	"N:\ta{255}{255}{255}{255}\n"
	"N:\ta++++++++++++++++++++++++++++++++++++++++++++++++++++++++++\n"
	"N:\t(unclosed\n"
	"\n"
	"MEMORY MANAGEMENT\n"
	"F:\tmm/\n"
	"\n"
	"THE REST\n"
	"M:\tLinus <l@x.org>\n"
	"F:\t*\n"
	"F:\t*/\n";

static void test_fields(void **state)
{
	struct maintainers *p = maintainers_parse(people, strlen(people));
	const struct maint_entry *e = maintainers_entry(p, 0);

	(void)state;
	/* INTRO has no fields: not an entry. */
	assert_int_equal(maintainers_nentries(p), 4);
	assert_int_equal(maintainers_count(p), 3); /* TRACING has no F: */
	assert_string_equal(e->title, "ZSWAP");
	assert_int_equal(e->m.n, 2);
	assert_string_equal(e->m.v[1], "B Person <b@x.org>");
	assert_int_equal(e->r.n, 1);
	/* The list's note is the recipients' business, not the parser's. */
	assert_non_null(strstr(e->l.v[0], "@kvack.org (moderated for"));
	assert_int_equal(e->k.n, 1);
	assert_string_equal(e->k.v[0], "zswap");
	e = maintainers_entry(p, 1);
	assert_int_equal(e->n.n, 4); /* kept as written, even if unused */
	assert_null(maintainers_entry(p, 4));
	maintainers_free(p);
}

static void test_match_order(void **state)
{
	struct maintainers *p = maintainers_parse(people, strlen(people));
	struct maint_match *v;
	size_t n = maintainers_match(p, "mm/zswap.c", &v);

	(void)state;
	/* Most specific first: the file (2), the directory (1), THE REST. */
	assert_int_equal(n, 3);
	assert_string_equal(maintainers_entry(p, v[0].entry)->title, "ZSWAP");
	assert_int_equal(v[0].depth, 2);
	assert_string_equal(maintainers_entry(p, v[1].entry)->title,
			    "MEMORY MANAGEMENT");
	assert_int_equal(v[1].depth, 1);
	assert_string_equal(maintainers_entry(p, v[2].entry)->title,
			    "THE REST");
	assert_int_equal(v[2].depth, -1);
	free(v);
	/* K: is about content: a path containing the keyword is not hit. */
	assert_string_equal(best(p, "drivers/zswap/x.c"), "THE REST");
	maintainers_free(p);
}

static void test_regex(void **state)
{
	struct maintainers *p = maintainers_parse(people, strlen(people));
	struct maint_match *v;
	size_t n;

	(void)state;
	/* N: ranks 0: above THE REST, below any F: pattern. */
	assert_string_equal(best(p, "include/trace/events/mmflags.h"),
			    "TRACING FLAGS");
	assert_string_equal(best(p, "mm/mmflags.c"), "MEMORY MANAGEMENT");
	n = maintainers_match(p, "include/trace/events/mmflags.h", &v);
	assert_int_equal(n, 2);
	assert_int_equal(v[0].depth, 0);
	free(v);
	/*
	 * Regexes glibc would blow up (bounds, stacked '+': found by
	 * fuzz_maintainers as a 12 s regcomp) and broken ones are not
	 * used, and break nothing.
	 */
	assert_string_equal(best(p, "aaaa"), "THE REST");
	assert_string_equal(best(p, "(unclosed"), "THE REST");
	maintainers_free(p);
}

static void test_nul_in_regex(void **state)
{
	/*
	 * Found by fuzz_maintainers: a NUL inside an N: value was read past
	 * its shortened copy, and one inside an F: value made a pattern
	 * "*" of depth 0 that tied with an N: match, so that
	 * maintainers_best() and maintainers_match() disagreed.  A value
	 * with a NUL is now not used at all.
	 */
	static const char nul[] = "S\nN:\tab\0cd\nF:\tx/\n\n"
				  "T\nN:\tZ\n\nU\nF:\0\t*/\n";
	struct maintainers *p = maintainers_parse(nul, sizeof(nul) - 1);
	const struct maint_entry *e = maintainers_entry(p, 0);

	(void)state;
	assert_int_equal(e->n.n, 0);
	assert_null(best(p, "ab/c"));
	assert_string_equal(best(p, "x/c"), "S");
	/* U's pattern is dropped: only T's N: covers mm/Z.c. */
	assert_string_equal(best(p, "mm/Z.c"), "T");
	assert_null(best(p, "mm/slab.c"));
	maintainers_free(p);
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
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_match_order),
		cmocka_unit_test(test_regex),
		cmocka_unit_test(test_nul_in_regex),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
