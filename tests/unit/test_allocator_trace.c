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

/* One line per writer and option, as each printed it on 6.18. */
static void test_writers(void **state)
{
	static const char *const lines[] = {
		/* perf script pads the shorter event names */
		"       perf-exec 17298 [001]  3125.079559:  "
		"kmem:mm_page_free: "
		"page=0x1be6bc pfn=0x1be6bc order=0",
		/* a comm with a space and a number in it */
		"  Web Content 12: 4001 [000]  2201.120041: kmem:mm_page_free: "
		"page=0x1 pfn=0x1be6bc order=0",
		/* perf script -F +period */
		"  cc1  4001 [000]  2201.120041:          1 kmem:mm_page_free: "
		"page=0x1 pfn=0x1be6bc order=0",
		/* trace-cmd report, and its -l, --ts-diff, -R, -t */
		"            bash-22785 [000]  3278.259627: mm_page_free:     "
		"    page=0x1be6bc pfn=0x1be6bc order=0",
		"    bash-22785   0.....  3278.259627: mm_page_free:        "
		"page=0x1be6bc pfn=0x1be6bc order=0",
		"            bash-22785 [000]  3278.259650: (+23)    "
		"mm_page_free:        page=0x1be6bc pfn=0x1be6bc order=0",
		"            bash-22785 [000]  3278.259627: mm_page_free:     "
		"    pfn=0x1be6bc order=0",
		"            bash-22785 [000]  3278.259626696: mm_page_free: "
		"page=0x1be6bc pfn=0x1be6bc order=0",
		/* trace-cmd report of a -B buffer names it first */
		"gfpa:               sh-32430 [001]  3490.144567: "
		"mm_page_free: "
		"page=0x1be6bc pfn=0x1be6bc order=0",
		/* tracefs: latency-format, record-tgid, counter clock */
		"      ld-30069     1.....  798us+: mm_page_free: page=0000 "
		"pfn=0x1be6bc order=0",
		"      ld-30069     1.....  798us : mm_page_free: page=0000 "
		"pfn=0x1be6bc order=0",
		"              ld-30069   (  30069) [001] .....  3422.032439: "
		"mm_page_free: page=00000000e3b39252 pfn=0x1be6bc order=0",
		"              ld-30069   [001] .....            2: "
		"mm_page_free: page=00000000e2245687 pfn=0x1be6bc order=0",
		/* context-info off: the event starts the line */
		"mm_page_free: page=00000000447e8aa6 pfn=0x1be6bc order=0",
		/* tabs, and a CRLF file */
		"bash-1\t[000]\t1.5:\tmm_page_free:\tpage=0 pfn=0x1be6bc "
		"order=0\r",
	};
	struct trace_event ev;
	const char *why = NULL;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		enum trace_line_kind k = parse(lines[i], "6.1", &ev, &why);

		if (k != TL_EVENT)
			print_error("line %zu: %s\n", i, why);
		assert_int_equal(k, TL_EVENT);
		assert_int_equal(ev.type, TEV_FREE);
		assert_int_equal(ev.pfn, 0x1be6bc);
	}
}

/* What is around the events, and failures as each writer prints them. */
static void test_asides(void **state)
{
	struct trace_event ev;
	const char *why = NULL;

	(void)state;
	assert_int_equal(parse("cpus=2", "6.1", &ev, &why), TL_COMMENT);
	assert_int_equal(parse("CPU 1 is empty", "6.1", &ev, &why), TL_COMMENT);
	assert_int_equal(parse("CPU:1 [LOST 42 EVENTS]", "6.1", &ev, &why),
			 TL_LOST);
	assert_int_equal(ev.pfn, 42);
	assert_int_equal(parse("CPU:0 [1234 EVENTS DROPPED]", "6.1", &ev, &why),
			 TL_LOST);
	assert_int_equal(ev.pfn, 1234);
	assert_int_equal(parse("CPU:0 [EVENTS DROPPED]", "6.1", &ev, &why),
			 TL_LOST);
	assert_int_equal(ev.pfn, 0);
	assert_int_equal(
		parse(" => __alloc_pages+0x1f/0x2c0", "6.1", &ev, &why),
		TL_STACK);
	assert_int_equal(parse("  bash-1 [000] ..... 1.5: <stack trace>", "6.1",
			       &ev, &why),
			 TL_STACK);
	assert_int_equal(parse("\tffffffff8123abcd __alloc_pages+0x1f "
			       "([kernel.kallsyms])",
			       "6.1", &ev, &why),
			 TL_STACK);
	/* a comm of hex letters is no return address */
	assert_int_equal(parse("  deadbeef 4001 [000] 1.5: kmem:mm_page_free: "
			       "page=0x1 pfn=0x1 order=0",
			       "6.1", &ev, &why),
			 TL_EVENT);
	/* a bare "word:" is an event only if it is ours */
	assert_int_equal(parse("Warning: something", "6.1", &ev, &why), TL_BAD);
	/* failures: the kernel, perf's (nil), trace-cmd -R's raw -1UL */
	assert_int_equal(parse("x-1 [000] .... 1.5: mm_page_alloc: "
			       "page=0000000000000000 pfn=0x0 order=9 "
			       "migratetype=1 gfp_flags=GFP_TRANSHUGE",
			       "6.1", &ev, &why),
			 TL_ALLOC_FAILED);
	assert_int_equal(parse("x 1 [000] 1.5: kmem:mm_page_alloc: page=(nil) "
			       "pfn=0x0 order=9 migratetype=1 gfp_flags=X",
			       "6.1", &ev, &why),
			 TL_ALLOC_FAILED);
	assert_int_equal(parse("x-1 [000] 1.5: mm_page_alloc: "
			       "pfn=0xffffffffffffffff order=9 "
			       "gfp_flags=0x140cca migratetype=1",
			       "6.1", &ev, &why),
			 TL_ALLOC_FAILED);
	assert_int_equal(parse("x-1 [000] 1.5: mm_page_alloc: page=(null) "
			       "pfn=0 order=3 migratetype=0 gfp_flags=X",
			       "4.13", &ev, &why),
			 TL_ALLOC_FAILED);
	/* a NULL-looking page with a real pfn is an allocation */
	assert_int_equal(parse("x-1 [000] 1.5: mm_page_alloc: page=0 "
			       "pfn=0x10 order=0 migratetype=0 gfp_flags=X",
			       "6.1", &ev, &why),
			 TL_EVENT);
	/* before 3.3 the frees had other names */
	assert_int_equal(parse("x-1 [000] 1.5: mm_page_free_direct: "
			       "page=ffffea0000000040 pfn=1 order=1",
			       "3.2", &ev, &why),
			 TL_EVENT);
	assert_int_equal(ev.type, TEV_FREE);
	assert_int_equal(parse("x-1 [000] 1.5: mm_pagevec_free: "
			       "page=ffffea0000000040 pfn=1 order=0 cold=1",
			       "3.2", &ev, &why),
			 TL_EVENT);
	assert_int_equal(ev.type, TEV_FREE_BATCHED);
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
	assert_string_equal(ev.first_bad_text, "junk");
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
		cmocka_unit_test(test_writers),
		cmocka_unit_test(test_asides),
		cmocka_unit_test(test_whole_buffer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
