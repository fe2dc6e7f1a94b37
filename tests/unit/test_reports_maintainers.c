// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for reports/maintainers.c: a report's subsystem names, from
 * the shared parser (tested in test_lib_maintainers.c) or by directory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reports/maintainers.h"

#include <string.h>

static const char text[] =
	"PROC SYSCTL\n"
	"F:\tfs/proc/proc_sysctl.c\n"
	"\n"
	"TRACING FLAGS\n"
	"N:\tmmflags\n";

static void test_section_title(void **state)
{
	struct maintainers *m = maintainers_parse(text, strlen(text));
	char buf[64];

	(void)state;
	assert_string_equal(report_subsystem(m, "fs/proc/proc_sysctl.c", buf,
					     sizeof(buf)),
			    "PROC SYSCTL");
	assert_string_equal(report_subsystem(m, "include/trace/mmflags.h",
					     buf, sizeof(buf)),
			    "TRACING FLAGS");
	maintainers_free(m);
}

static void test_directory_fallback(void **state)
{
	struct maintainers *m = maintainers_parse(text, strlen(text));
	char buf[64], tiny[4];

	(void)state;
	/* Not covered: its first two directories. */
	assert_string_equal(report_subsystem(m, "mm/kasan/common.c", buf,
					     sizeof(buf)),
			    "mm/kasan/");
	assert_string_equal(report_subsystem(m, "mm/slab.c", buf, sizeof(buf)),
			    "mm/");
	assert_string_equal(report_subsystem(m, "Makefile", buf, sizeof(buf)),
			    "(top level)");
	/* No MAINTAINERS at all. */
	assert_string_equal(report_subsystem(NULL, "fs/proc/proc_sysctl.c",
					     buf, sizeof(buf)),
			    "fs/proc/");
	/* A short buffer truncates, never overflows. */
	assert_string_equal(report_subsystem(NULL, "fs/proc/x.c", tiny,
					     sizeof(tiny)),
			    "fs/");
	maintainers_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_section_title),
		cmocka_unit_test(test_directory_fallback),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
