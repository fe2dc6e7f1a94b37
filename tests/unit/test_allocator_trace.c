// SPDX-License-Identifier: GPL-2.0
/* The kmem trace line parser: layouts, versions, and what it refuses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "allocator/mmzone.h"
#include "allocator/trace.h"

static enum trace_line_kind parse(const char *line, const char *version,
				  struct trace_event *ev, const char **why)
{
	struct trace_format fmt;

	assert_int_equal(trace_format_for(version, &fmt), 0);
	return trace_parse_line(line, strlen(line), &fmt, ev, why);
}

static void test_versions(void **state)
{
	struct trace_format f;

	(void)state;
	trace_format_for("4.3", &f);
	assert_false(f.mt_after_44);
	assert_false(f.pfn_hex);
	trace_format_for("4.4", &f);
	assert_true(f.mt_after_44);
	trace_format_for("5.13.19", &f);
	assert_false(f.pfn_hex);
	trace_format_for("5.14", &f);
	assert_true(f.pfn_hex);
	trace_format_for("6.1.0-13-amd64", &f);
	assert_true(f.pfn_hex && f.mt_after_44);
	assert_int_equal(trace_format_for("six", &f), -1);
}

static void test_alloc_61(void **state)
{
	struct trace_event ev;
	const char *why = NULL;

	(void)state;
	assert_int_equal(parse("  bash-1  [001] .....  8.5: mm_page_alloc: "
			       "page=000000001 pfn=0x1f order=2 migratetype=2 "
			       "gfp_flags=GFP_KERNEL",
			       "6.1", &ev, &why),
			 TL_EVENT);
	assert_int_equal(ev.type, TEV_ALLOC);
	assert_int_equal(ev.pfn, 0x1f);
	assert_int_equal(ev.order, 2);
	/* 4.4+: 2 is RECLAIMABLE */
	assert_int_equal(ev.mt, MIGRATE_RECLAIMABLE);
}

static void test_alloc_old_numbering(void **state)
{
	struct trace_event ev;
	const char *why = NULL;

	(void)state;
	/* before 4.4, 2 is MOVABLE and 1 RECLAIMABLE */
	assert_int_equal(parse("make-9 [000] .... 1.000001: mm_page_alloc: "
			       "page=ffffea0001000000 pfn=262144 order=0 "
			       "migratetype=2 gfp_flags=GFP_HIGHUSER_MOVABLE",
			       "3.10", &ev, &why),
			 TL_EVENT);
	assert_int_equal(ev.mt, MIGRATE_MOVABLE);
	assert_int_equal(ev.pfn, 262144);
	assert_int_equal(parse("make-9 [000] .... 1.000001: mm_page_alloc: "
			       "page=ffffea0001000000 pfn=262144 order=0 "
			       "migratetype=1 gfp_flags=GFP_KERNEL",
			       "3.10", &ev, &why),
			 TL_EVENT);
	assert_int_equal(ev.mt, MIGRATE_RECLAIMABLE);
}

static void test_perf_script(void **state)
{
	struct trace_event ev;
	const char *why = NULL;

	(void)state;
	assert_int_equal(
		parse("  cc1  4001 [000]  2201.120041: "
		      "kmem:mm_page_free_batched: page=0xffffea0004290000 "
		      "pfn=1090560 order=0 cold=0",
		      "4.13", &ev, &why),
		TL_EVENT);
	assert_int_equal(ev.type, TEV_FREE_BATCHED);
	assert_int_equal(ev.pfn, 1090560);
	assert_int_equal(
		parse("  cc1  4001 [000]  2201.120041: kmem:mm_page_free: "
		      "page=0xffffea0004290000 pfn=1090560 order=3",
		      "4.13", &ev, &why),
		TL_EVENT);
	assert_int_equal(ev.type, TEV_FREE);
	assert_int_equal(ev.order, 3);
}

static void test_extfrag(void **state)
{
	struct trace_event ev;
	const char *why = NULL;

	(void)state;
	assert_int_equal(
		parse("<idle>-0 [000] ..s1. 8.5: mm_page_alloc_extfrag: "
		      "page=0000000f pfn=0x11c000 alloc_order=3 "
		      "fallback_order=10 pageblock_order=9 alloc_migratetype=2 "
		      "fallback_migratetype=1 fragmenting=0 change_ownership=1",
		      "6.1", &ev, &why),
		TL_EVENT);
	assert_int_equal(ev.type, TEV_EXTFRAG);
	assert_int_equal(ev.order, 10);
	assert_int_equal(ev.flags, 2);
}

static void test_refusals(void **state)
{
	struct trace_event ev;
	const char *why = NULL;

	(void)state;
	assert_int_equal(parse("", "6.1", &ev, &why), TL_BLANK);
	assert_int_equal(parse("# tracer: nop", "6.1", &ev, &why), TL_COMMENT);
	assert_int_equal(parse("garbage", "6.1", &ev, &why), TL_BAD);
	assert_int_equal(parse("x-1 [000] .... 1.5: sched_switch: prev_comm=x",
			       "6.1", &ev, &why),
			 TL_OTHER);
	/* decimal pfn on a 6.1 trace, hex on a 4.13 one */
	assert_int_equal(parse("x-1 [000] .... 1.5: mm_page_free: page=0 "
			       "pfn=123 order=0",
			       "6.1", &ev, &why),
			 TL_BAD);
	assert_non_null(strstr(why, "decimal"));
	assert_int_equal(parse("x-1 [000] .... 1.5: mm_page_free: page=0 "
			       "pfn=0x123 order=0",
			       "4.13", &ev, &why),
			 TL_BAD);
	/* 6.1 has no migratetype 4 on the page lists */
	assert_int_equal(parse("x-1 [000] .... 1.5: mm_page_alloc: page=0 "
			       "pfn=0x1 order=0 migratetype=4 gfp_flags=X",
			       "6.1", &ev, &why),
			 TL_BAD);
	assert_int_equal(parse("x-1 [000] .... 1.5: mm_page_alloc: page=0 "
			       "pfn=0x1 order=11 migratetype=0 gfp_flags=X",
			       "6.1", &ev, &why),
			 TL_BAD);
	assert_int_equal(parse("x-1 [000] .... 1.5: mm_page_alloc: page=0 "
			       "pfn=0x1 migratetype=0",
			       "6.1", &ev, &why),
			 TL_BAD);
	assert_int_equal(
		parse("x-1 [000] .... 1.5: mm_page_alloc: page=(null) pfn=0x0 "
		      "order=9 migratetype=1 gfp_flags=GFP_TRANSHUGE",
		      "6.1", &ev, &why),
		TL_ALLOC_FAILED);
	assert_int_equal(parse("x-1 [000] .... 1.5: mm_page_free: page=0 "
			       "pfn=0xffffffffffffffffff order=0",
			       "6.1", &ev, &why),
			 TL_BAD);
	assert_int_equal(parse("x-1 [000] .... 1.5: mm_page_free: page=0 "
			       "pfn=0xffffffffffffffff order=0",
			       "6.1", &ev, &why),
			 TL_BAD);
	assert_string_equal(why, "pfn= out of range");
	assert_int_equal(parse("x-1 [000] .... 1.5: mm_page_free: page=0 pfn",
			       "6.1", &ev, &why),
			 TL_BAD);
	assert_int_equal(
		parse("x-1 [000] .... 1.5: mm_page_free:", "6.1", &ev, &why),
		TL_BAD);
}

static void test_whole_buffer(void **state)
{
	static const char buf[] =
		"# ========\n# os release : 4.13.0\n# ========\n"
		"a 1 [000] 1.0: kmem:mm_page_alloc: page=0 pfn=10 order=0 "
		"migratetype=1 gfp_flags=X\n"
		"junk\n"
		"a 1 [000] 1.1: kmem:mm_page_free: page=0 pfn=10 order=0";
	struct trace_events ev;

	(void)state;
	assert_int_equal(trace_parse(buf, sizeof(buf) - 1, NULL, &ev), 0);
	assert_string_equal(ev.version, "4.13.0");
	assert_string_equal(ev.version_from, "trace header");
	assert_int_equal(ev.nr, 2);
	assert_int_equal(ev.unparseable, 1);
	assert_int_equal(ev.first_bad_line, 5);
	assert_int_equal(ev.comments, 3);
	trace_events_free(&ev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_versions),
		cmocka_unit_test(test_alloc_61),
		cmocka_unit_test(test_alloc_old_numbering),
		cmocka_unit_test(test_perf_script),
		cmocka_unit_test(test_extfrag),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_whole_buffer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
