// SPDX-License-Identifier: GPL-2.0
/*
 * lib/util.c's string buffer: sb_addf() formats into the room it has
 * and again when the text did not fit; either way the buffer holds the
 * whole text, NUL-terminated, with its length.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

static void test_addf_small(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	sb_addf(&sb, "%s", "");
	assert_non_null(sb.buf);
	assert_int_equal(sb.len, 0);
	assert_string_equal(sb.buf, "");
	sb_addf(&sb, "%c%s/%d", '>', "kfree", 0);
	sb_addf(&sb, " %s", "B");
	assert_string_equal(sb.buf, ">kfree/0 B");
	assert_int_equal(sb.len, strlen(sb.buf));
	sb_release(&sb);
}

/* texts longer than the room, at the edge of it and far past it */
static void test_addf_grows(void **state)
{
	struct strbuf sb = STRBUF_INIT, want = STRBUF_INIT;
	char big[5000];
	int i;

	(void)state;
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	for (i = 0; i < 200; i++) {
		int n = (i * 37) % 300;

		sb_addf(&sb, "%.*s|%d", n, big, i);
		sb_add(&want, big, (size_t)n);
		sb_add(&want, "|", 1);
		{
			char num[16];
			int l = snprintf(num, sizeof(num), "%d", i);

			sb_add(&want, num, (size_t)l);
		}
		assert_int_equal(sb.len, want.len);
		assert_memory_equal(sb.buf, want.buf, want.len + 1);
	}
	sb_addf(&sb, "%s", big);
	assert_int_equal(sb.len, want.len + strlen(big));
	assert_string_equal(sb.buf + want.len, big);
	sb_release(&sb);
	sb_release(&want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_addf_small),
		cmocka_unit_test(test_addf_grows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
