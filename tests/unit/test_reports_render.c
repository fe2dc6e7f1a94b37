// SPDX-License-Identifier: GPL-2.0
/* Unit tests for the renderers: escaping, empty data, chart geometry. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reports/report.h"
#include "reports/svg.h"

#include <stdlib.h>
#include <string.h>

static void test_xml_escape(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	sb_add_xml(&sb, "<a href=\"x\">'&'</a>");
	assert_string_equal(sb.buf,
			    "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
	sb_release(&sb);
}

static void test_uri_path(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	sb_add_uri_path(&sb, "drivers/x/a b#<c>%.c");
	assert_string_equal(sb.buf, "drivers/x/a%20b%23%3Cc%3E%25.c");
	sb_reset(&sb);
	sb_add_uri_path(&sb, "fs/proc/base.c");
	assert_string_equal(sb.buf, "fs/proc/base.c");
	sb_release(&sb);
}

static void test_bars(void **state)
{
	struct bar v[] = { { "big", 10 }, { "half", 5 }, { "<zero>", 0 } };
	struct bars b = { v, 3 };
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	svg_bar_chart(&sb, "c", "T & t", &b);
	/* Scaled to the largest: 360 px, 180 px, nothing. */
	assert_non_null(strstr(sb.buf, "width=\"360.0\""));
	assert_non_null(strstr(sb.buf, "width=\"180.0\""));
	assert_non_null(strstr(sb.buf, "width=\"0.0\""));
	assert_non_null(strstr(sb.buf, "&lt;zero&gt;"));
	assert_non_null(strstr(sb.buf, "T &amp; t"));
	assert_null(strstr(sb.buf, "<zero>"));
	sb_release(&sb);
}

static void test_empty_bars(void **state)
{
	struct bars b = { NULL, 0 };
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	svg_bar_chart(&sb, "c", "none", &b);
	assert_non_null(strstr(sb.buf, "no data"));
	assert_non_null(strstr(sb.buf, "</svg>"));
	sb_release(&sb);
}

static void test_lines_thinned(void **state)
{
	static long long x[5000];
	static double y[5000];
	struct series s = { "a<b", x, y, 5000, 5000 };
	struct chart c = { "t", &s, 1 };
	struct strbuf sb = STRBUF_INIT;
	const char *p;
	int i, points = 0;

	(void)state;
	for (i = 0; i < 5000; i++) {
		x[i] = i;
		y[i] = 5000 - i;
	}
	svg_line_chart(&sb, "l", &c, "step", "free");
	p = strstr(sb.buf, "points=\"");
	assert_non_null(p);
	for (p += 8; *p != '"'; p++)
		points += *p == ',';
	/* At most 1000 points plus the last one. */
	assert_true(points <= 1001 && points >= 999);
	assert_non_null(strstr(sb.buf, "a&lt;b"));
	sb_release(&sb);
}

static void test_md_escaping(void **state)
{
	static char *head[] = { "a", "b" };
	static char *cells[] = { "x | y", "__GFP_RECLAIMABLE", "line\nbreak",
				 "" };
	struct report r;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.findings.ncol = 2;
	r.findings.head = head;
	r.findings.cells = cells;
	r.findings.nrows = 2;
	r.subsys_source = "test";
	report_md(&r, &sb);
	assert_non_null(strstr(sb.buf, "| x \\| y | `__GFP_RECLAIMABLE` |"));
	assert_non_null(strstr(sb.buf, "| line break |  |"));
	assert_non_null(strstr(sb.buf, "_no runs_"));
	sb_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xml_escape),
		cmocka_unit_test(test_uri_path),
		cmocka_unit_test(test_bars),
		cmocka_unit_test(test_empty_bars),
		cmocka_unit_test(test_lines_thinned),
		cmocka_unit_test(test_md_escaping),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
