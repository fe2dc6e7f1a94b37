// SPDX-License-Identifier: GPL-2.0
/* The impact workload's reading of a site's flags text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "allocator/impact.h"
#include "allocator/mmzone.h"

static void test_flags_text(void **state)
{
	(void)state;
	assert_int_equal(flags_text_migratetype(NULL), MIGRATE_UNMOVABLE);
	assert_int_equal(flags_text_migratetype("GFP_KERNEL"), MIGRATE_UNMOVABLE);
	assert_int_equal(flags_text_migratetype("GFP_TEMPORARY"),
			 MIGRATE_RECLAIMABLE);
	assert_int_equal(flags_text_migratetype("GFP_NOFS|__GFP_RECLAIMABLE"),
			 MIGRATE_RECLAIMABLE);
	assert_int_equal(flags_text_migratetype("GFP_KERNEL | __GFP_RECLAIMABLE"),
			 MIGRATE_RECLAIMABLE);
	assert_int_equal(flags_text_migratetype("GFP_HIGHUSER_MOVABLE"),
			 MIGRATE_MOVABLE);
	assert_int_equal(flags_text_migratetype("GFP_USER | __GFP_MOVABLE"),
			 MIGRATE_MOVABLE);
	/* whole tokens only */
	assert_int_equal(flags_text_migratetype("MY_GFP_TEMPORARY_FLAGS"),
			 MIGRATE_UNMOVABLE);
	assert_int_equal(flags_text_migratetype("gfp_temporary"), MIGRATE_UNMOVABLE);
	assert_int_equal(flags_text_migratetype("x___GFP_RECLAIMABLE"),
			 MIGRATE_UNMOVABLE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flags_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
