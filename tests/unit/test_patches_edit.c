// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the pure parts of patches/: token and line edits,
 * patch parsing, MAINTAINERS matching, subsystem prefixes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "lib/gfpmask.h"
#include "patches/edit.h"
#include "patches/maintainers.h"
#include "patches/subsys.h"
#include "patches/validate.h"

#include <stdlib.h>
#include <string.h>

/* Apply edits; *refused gets the refusals' lines (malloc'd, may be ""). */
static char *apply_r(const char *in, struct edit *e, int n, int want_rc,
		     char *err, char **refused)
{
	struct strbuf out = STRBUF_INIT, why = STRBUF_INIT;
	int rc = edits_apply(in, strlen(in), e, n, &out, &why, err, 256);

	assert_int_equal(rc, want_rc);
	*refused = sb_detach(&why) ?: xstrdup("");
	return sb_detach(&out) ?: xstrdup("");
}

/* The same, where no hunk may be refused. */
static char *apply(const char *in, struct edit *e, int n, int want_rc,
		   char *err)
{
	char *refused, *out = apply_r(in, e, n, want_rc, err, &refused);

	assert_string_equal(refused, "");
	free(refused);
	return out;
}

static void test_token(void **state)
{
	const char *in = "\tp = kmalloc(n,\tGFP_TEMPORARY | __GFP_NOWARN);\r\n"
			 "x GFP_TEMPORARY y GFP_TEMPORARY\n";
	struct edit e[] = {
		{EDIT_TOKEN, 2, 19, "GFP_TEMPORARY", "GFP_KERNEL", NULL, 0},
		{EDIT_TOKEN, 1, 17, "GFP_TEMPORARY", "GFP_KERNEL", NULL, 0},
		{EDIT_TOKEN, 2, 3, "GFP_TEMPORARY", "gfp", NULL, 0},
	};
	char err[256], *out;

	(void)state;
	out = apply(in, e, 3, 0, err);
	assert_string_equal(out,
			    "\tp = kmalloc(n,\tGFP_KERNEL | __GFP_NOWARN);\r\n"
			    "x gfp y GFP_KERNEL\n");
	free(out);
}

static void test_stale(void **state)
{
	struct edit e = {EDIT_TOKEN, 1, 3, "GFP_TEMPORARY", "GFP_KERNEL", NULL,
			 0};
	struct edit e2 = {EDIT_TOKEN, 1, 1, "GFP_TEMP", "GFP_KERNEL", NULL, 0};
	struct edit e3 = {EDIT_TOKEN, 9, 1, "GFP_TEMPORARY", "GFP_KERNEL", NULL,
			  0};
	char err[256], *out;

	(void)state;
	out = apply("GFP_TEMPORARY\n", &e, 1, -1, err);
	assert_string_equal(err, "1:3: expected GFP_TEMPORARY (is the "
				 "database stale?)");
	free(out);
	/* A prefix of a longer identifier is not the token. */
	out = apply("GFP_TEMPORARY\n", &e2, 1, -1, err);
	free(out);
	out = apply("GFP_TEMPORARY\n", &e3, 1, -1, err);
	assert_non_null(strstr(err, "no such line"));
	free(out);
}

static void test_define_and_table(void **state)
{
	const char *in =
		"#define GFP_NOFS\t(x)\n"
		"#define GFP_TEMPORARY\t(a | \\\n"
		"\t\t\t b)\n"
		"#define GFP_USER\t(y)\n"
		"\t{(unsigned long)GFP_TEMPORARY,\t\"GFP_TEMPORARY\"},\t\\\n"
		"\t{ \"GFP_TEMPORARY\",\t\"TMP\" },\n"
		"\tpr_debug(\"GFP_TEMPORARY\");\n";
	struct edit e[] = {
		{EDIT_DEL_DEFINE, 2, 9, "GFP_TEMPORARY", NULL, NULL, 0},
		{EDIT_DEL_LINE, 5, 18, "GFP_TEMPORARY", NULL, NULL, 0},
		{EDIT_DEL_LINE, 5, 35, "GFP_TEMPORARY", NULL, NULL, 0},
		{EDIT_DEL_LINE, 6, 5, "GFP_TEMPORARY", NULL, NULL, 0},
		/* Not a table line: the token is replaced instead. */
		{EDIT_DEL_LINE, 7, 12, "GFP_TEMPORARY", "GFP_KERNEL", NULL, 0},
	};
	char err[256], *out;

	(void)state;
	out = apply(in, e, 5, 0, err);
	assert_string_equal(out, "#define GFP_NOFS\t(x)\n"
				 "#define GFP_USER\t(y)\n"
				 "\tpr_debug(\"GFP_KERNEL\");\n");
	free(out);
}

static void test_drop(void **state)
{
	const char *in = "a(GFP_KERNEL | __GFP_RECLAIMABLE);\n"
			 "b(__GFP_RECLAIMABLE|GFP_NOFS);\n"
			 "c(__GFP_RECLAIMABLE);\n";
	struct edit e[] = {
		{EDIT_TOKEN, 1, 16, "__GFP_RECLAIMABLE", NULL, NULL, 0},
		{EDIT_TOKEN, 2, 3, "__GFP_RECLAIMABLE", NULL, NULL, 0},
		{EDIT_TOKEN, 3, 3, "__GFP_RECLAIMABLE", NULL, NULL, 0},
	};
	char err[256], *out;

	(void)state;
	out = apply(in, e, 3, 0, err);
	assert_string_equal(out, "a(GFP_KERNEL);\nb(GFP_NOFS);\nc(0);\n");
	free(out);
}

static void test_no_trailing_newline(void **state)
{
	struct edit e = {EDIT_TOKEN, 2, 1, "GFP_TEMPORARY", "GFP_KERNEL", NULL,
			 0};
	char err[256], *out;

	(void)state;
	out = apply("x\nGFP_TEMPORARY", &e, 1, 0, err);
	assert_string_equal(out, "x\nGFP_KERNEL");
	free(out);
}

static void test_arg_add(void **state)
{
	const char *in =
		"c = kmem_cache_create(\"a\", 8, 0, 0, NULL);\n"
		"c = kmem_cache_create(\"b\", 8, 0,\n"
		"\t\tSLAB_HWCACHE_ALIGN |\tSLAB_PANIC /* why */,\n"
		"\t\tNULL);\n"
		"c = KMEM_CACHE(d, SLAB_RECLAIM_ACCOUNT | SLAB_PANIC);\n"
		"c = kmem_cache_create(\"e\", 8, 0, big ? F(1, 2) : 0, NULL);\n"
		"x GFP_TEMPORARY\n";
	struct edit e[] = {
		{EDIT_ARG_ADD, 1, 34, "0", "SLAB_RECLAIM_ACCOUNT", NULL, 0},
		{EDIT_ARG_ADD, 3, 3, "SLAB_HWCACHE_ALIGN | SLAB_PANIC",
		 "SLAB_RECLAIM_ACCOUNT", NULL, 0},
		/* Never added twice. */
		{EDIT_ARG_ADD, 5, 19, "SLAB_RECLAIM_ACCOUNT | SLAB_PANIC",
		 "SLAB_RECLAIM_ACCOUNT", NULL, 0},
		/* ?: binds more loosely than |: the old text is bracketed. */
		{EDIT_ARG_ADD, 6, 34, "big ? F(1, 2) : 0",
		 "SLAB_RECLAIM_ACCOUNT", NULL, 0},
		{EDIT_TOKEN, 7, 3, "GFP_TEMPORARY", "GFP_KERNEL", NULL, 0},
	};
	struct edit stale = {EDIT_ARG_ADD, 1, 34, "SLAB_PANIC", "X", NULL, 0};
	struct edit over[] = {
		{EDIT_ARG_ADD, 2, 33, "SLAB_HWCACHE_ALIGN | SLAB_PANIC", "X",
		 NULL, 0},
		{EDIT_TOKEN, 3, 24, "SLAB_PANIC", "Y", NULL, 0},
	};
	char err[256], *out;

	(void)state;
	out = apply(in, e, 5, 0, err);
	assert_string_equal(
		out,
		"c = kmem_cache_create(\"a\", 8, 0, SLAB_RECLAIM_ACCOUNT, NULL);\n"
		"c = kmem_cache_create(\"b\", 8, 0,\n"
		"\t\tSLAB_HWCACHE_ALIGN |\tSLAB_PANIC | SLAB_RECLAIM_ACCOUNT "
		"/* why */,\n"
		"\t\tNULL);\n"
		"c = KMEM_CACHE(d, SLAB_RECLAIM_ACCOUNT | SLAB_PANIC);\n"
		"c = kmem_cache_create(\"e\", 8, 0, (big ? F(1, 2) : 0) | "
		"SLAB_RECLAIM_ACCOUNT, NULL);\n"
		"x GFP_KERNEL\n");
	free(out);
	out = apply(in, &stale, 1, -1, err);
	assert_string_equal(err, "1:34: expected the argument 'SLAB_PANIC' "
				 "(is the database stale?)");
	free(out);
	/* The argument starts on line 2's end and runs over line 3. */
	out = apply(in, over, 2, -1, err);
	assert_string_equal(err, "3:24: edits overlap");
	free(out);
}

static void test_arg_param(void **state)
{
	const char *in = "\tbuffer = kmalloc(PAGE_SIZE, GFP_TEMPORARY);\n"
			 "\tp = kzalloc(n, GFP_KERNEL | __GFP_NOWARN);\n"
			 "\tq = kzalloc(n, GFP_KERNEL | GFP_DMA);\n"
			 "\tr = kzalloc(n, GFP_NOFS | GFP_KERNEL);\n"
			 "\ts = f(c, local & ~GFP_CONSTRAINT_MASK, node);\n";
	struct edit e[] = {
		{EDIT_ARG_PARAM, 1, 30, "GFP_TEMPORARY", "gfp", "GFP_TEMPORARY",
		 0},
		{EDIT_ARG_PARAM, 2, 17, "GFP_KERNEL | __GFP_NOWARN", "flags",
		 "GFP_KERNEL", 0},
		/* GFP_DMA is a zone modifier: it stays beside the parameter. */
		{EDIT_ARG_PARAM, 3, 17, "GFP_KERNEL | GFP_DMA", "g",
		 "GFP_KERNEL", 0},
	};
	struct edit two = {EDIT_ARG_PARAM, 4, 17, "GFP_NOFS | GFP_KERNEL", "g",
			   "GFP_KERNEL", 0};
	/* 6.1 mm/slab.c: the planned base mask is not in the argument. */
	struct edit slab = {EDIT_ARG_PARAM, 5, 11,
			    "local & ~GFP_CONSTRAINT_MASK", "flags",
			    "GFP_KERNEL", 0};
	size_t off = 0;
	char err[256], *out, *why;

	(void)state;
	out = apply(in, e, 3, 0, err);
	assert_string_equal(
		out, "\tbuffer = kmalloc(PAGE_SIZE, gfp);\n"
		     "\tp = kzalloc(n, flags | __GFP_NOWARN);\n"
		     "\tq = kzalloc(n, g | GFP_DMA);\n"
		     "\tr = kzalloc(n, GFP_NOFS | GFP_KERNEL);\n"
		     "\ts = f(c, local & ~GFP_CONSTRAINT_MASK, node);\n");
	free(out);
	/* A plan the argument does not bear out: the hunk is refused. */
	out = apply_r(in, &two, 1, 0, err, &why);
	assert_string_equal(out, in);
	assert_string_equal(
		why, "4:17: hunk refused: 'GFP_NOFS | GFP_KERNEL' is not one "
		     "base mask GFP_KERNEL and modifiers\n");
	assert_int_equal(two.refused, 1);
	free(out);
	free(why);
	out = apply_r(in, &slab, 1, 0, err, &why);
	assert_string_equal(out, in);
	assert_string_equal(why, "5:11: hunk refused: 'local & "
				 "~GFP_CONSTRAINT_MASK' is not one base mask "
				 "GFP_KERNEL and modifiers\n");
	free(out);
	free(why);
	assert_int_equal(
		gfp_count_base_masks("__GFP_IO | GFP_NOFS /* GFP_KERNEL */", 36,
				     &off),
		1);
	assert_int_equal(off, 11);
	assert_int_equal(gfp_count_base_masks("__GFP_IO | MY_GFP_KERNEL", 24,
					      &off),
			 0);
	assert_int_equal(gfp_count_base_masks("f & ~GFP_CONSTRAINT_MASK", 24,
					      NULL),
			 0);
	assert_true(gfp_is_base_mask("GFP_NOWAIT", 10));
	assert_false(gfp_is_base_mask("GFP_DMA", 7));
}

/* A hunk whose token difference is not the planned one is refused. */
static void test_hunk_check(void **state)
{
	const char *slab = "\tf = alloc_slabmgmt(c, s, off,\n"
			   "\t\t\tlocal_flags & ~GFP_CONSTRAINT_MASK, node);\n";
	const char *wrong = "local_flags & ~flags";
	const char *arg = "GFP_KERNEL | /* x */ __GFP_NOWARN";
	struct edit param = {EDIT_ARG_PARAM, 2,	      4, "",
			     "flags",	     "GFP_KERNEL", 0};
	struct edit drop[] = {
		{EDIT_TOKEN, 1, 16, "__GFP_RECLAIMABLE", NULL, NULL, 0},
		{EDIT_TOKEN, 2, 3, "__GFP_RECLAIMABLE", NULL, NULL, 0},
		{EDIT_TOKEN, 3, 8, "__GFP_RECLAIMABLE", NULL, NULL, 0},
	};
	char why[256], err[256], *out, *refused;
	size_t s = strstr(slab, "local") - slab;

	(void)state;
	/* 6.1 mm/slab.c as the edit once rewrote it. */
	assert_int_equal(edit_check(slab, strlen(slab), s,
				    s + strlen("local_flags & "
					       "~GFP_CONSTRAINT_MASK"),
				    wrong, strlen(wrong), &param, why,
				    sizeof(why)),
			 -1);
	assert_string_equal(why, "the hunk changes 'GFP_CONSTRAINT_MASK' into "
				 "'flags', the plan 'GFP_KERNEL' into 'flags'");
	/* The planned change passes, blanks and comments aside. */
	assert_int_equal(edit_check(arg, strlen(arg), 0, strlen(arg),
				    "flags |  __GFP_NOWARN", 21, &param, why,
				    sizeof(why)),
			 0);
	/* One token more than planned does not. */
	assert_int_equal(edit_check(arg, strlen(arg), 0, strlen(arg),
				    "flags | __GFP_NORETRY", 21, &param, why,
				    sizeof(why)),
			 -1);
	assert_string_equal(why, "the hunk changes 'GFP_KERNEL | __GFP_NOWARN' "
				 "into 'flags | __GFP_NORETRY', the plan "
				 "'GFP_KERNEL' into 'flags'");
	/*
	 * A dropped flag becomes 0 only where it was the whole mask: under
	 * ~ or & that changes what the line means, and the hunk is left
	 * out while the file's other edits stay.
	 */
	out = apply_r("a(GFP_KERNEL | __GFP_RECLAIMABLE);\n"
		      "b(__GFP_RECLAIMABLE);\n"
		      "c(g & ~__GFP_RECLAIMABLE);\n",
		      drop, 3, 0, err, &refused);
	assert_string_equal(out, "a(GFP_KERNEL);\nb(0);\n"
				 "c(g & ~__GFP_RECLAIMABLE);\n");
	assert_string_equal(refused, "3:8: hunk refused: the hunk changes "
				     "'__GFP_RECLAIMABLE' into '0', the plan "
				     "drops __GFP_RECLAIMABLE\n");
	assert_int_equal(drop[0].refused + drop[1].refused, 0);
	assert_int_equal(drop[2].refused, 1);
	free(out);
	free(refused);
}

static void test_vpatch(void **state)
{
	const char *p =
		"From x\nSubject: [PATCH] t\n\n---\n"
		"diff --git a/fs/a.c b/fs/a.c\n"
		"--- a/fs/a.c\n+++ b/fs/a.c\n"
		"@@ -10,3 +10,3 @@ f\n"
		" ctx\n-old\n+new\n ctx\n"
		"diff --git a/include/g.h b/include/g.h\n"
		"--- a/include/g.h\n+++ b/include/g.h\n"
		"@@ -5,4 +5,2 @@\n"
		" #define A 1\n-#define GFP_TEMPORARY\t(x | \\\n-\t y)\n"
		"-#define REDEF 1\n+#define REDEF 2\n"
		"-- \n2.39.2\n";
	struct vpatch v = {0};
	char err[256];

	(void)state;
	assert_int_equal(vpatch_parse(p, &v, err, sizeof(err)), 0);
	assert_int_equal(v.npaths, 2);
	assert_string_equal(v.paths[0], "fs/a.c");
	assert_true(vpatch_touches_line(&v, 0, 11));
	assert_false(vpatch_touches_line(&v, 0, 10));
	assert_int_equal(v.nremoved, 1); /* REDEF is redefined, not removed */
	assert_string_equal(v.removed_defines[0], "GFP_TEMPORARY");
	vpatch_free(&v);
	assert_int_equal(vpatch_parse("diff --git a/../x b/../x\n", &v, err,
				      sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "unsafe path"));
	vpatch_free(&v);
	assert_int_equal(vpatch_parse("no diff here\n", &v, err, sizeof(err)),
			 -1);
	vpatch_free(&v);
	/*
	 * Names git quotes ('"', bytes >= 0x80) used to be skipped, their
	 * hunks counted to the file before; a name holding " b/" was cut.
	 */
	assert_int_equal(vpatch_parse("diff --git \"a/fs/q\\\"x.c\" "
				      "\"b/fs/q\\\"x.c\"\n"
				      "diff --git \"a/caf\\303\\251.c\" "
				      "\"b/caf\\303\\251.c\"\n"
				      "diff --git a/d b/e.c b/d b/e.c\n"
				      "diff --git a/t\tx b/t\tx\n",
				      &v, err, sizeof(err)),
			 0);
	assert_int_equal(v.npaths, 4);
	assert_string_equal(v.paths[0], "fs/q\"x.c");
	assert_string_equal(v.paths[1], "caf\303\251.c");
	assert_string_equal(v.paths[2], "d b/e.c");
	assert_string_equal(v.paths[3], "t\tx");
	vpatch_free(&v);
	assert_int_equal(vpatch_parse("diff --git \"a/x\\000y\" "
				      "\"b/x\\000y\"\n",
				      &v, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "bad diff header"));
	vpatch_free(&v);
	assert_int_equal(vpatch_parse("diff --git \"a/../x\" \"b/../x\"\n",
				      &v, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "unsafe path"));
	vpatch_free(&v);
}

static void test_maintainers(void **state)
{
	const char *m =
		"Intro text\n\n"
		"PROC\nM:\tP <p@x>\nL:\tfs@x (open list)\nF:\tfs/proc/\n"
		"X:\tfs/proc/skip.c\n\n"
		"DRM\nM:\tD <d@x>\nF:\tdrivers/gpu/drm/*.c\n\n"
		"NRX\nR:\tN <n@x>\nN:\tmmflags\n\n"
		"THE REST\nM:\tL <l@x>\nL:\tlkml@x\nF:\t*\nF:\t*/\n";
	struct maintainers *mt;
	struct addr_list to = {0}, cc = {0};

	(void)state;
	mt = maintainers_parse(m, strlen(m));
	maintainers_for(mt, "fs/proc/base.c", &to, &cc);
	assert_int_equal(to.n, 1);
	assert_string_equal(to.v[0], "P <p@x>");
	assert_int_equal(cc.n, 2);
	assert_string_equal(cc.v[0], "fs@x");
	assert_string_equal(cc.v[1], "lkml@x");
	addr_list_free(&to);
	addr_list_free(&cc);
	maintainers_for(mt, "fs/proc/skip.c", &to, &cc);
	assert_string_equal(to.v[0], "L <l@x>"); /* only THE REST */
	addr_list_free(&to);
	addr_list_free(&cc);
	maintainers_for(mt, "drivers/gpu/drm/i915/x.c", &to, &cc);
	assert_string_equal(to.v[0], "L <l@x>"); /* glob is one level */
	addr_list_free(&to);
	addr_list_free(&cc);
	maintainers_for(mt, "include/trace/events/mmflags.h", &to, &cc);
	assert_string_equal(cc.v[0], "N <n@x>");
	addr_list_free(&to);
	addr_list_free(&cc);
	maintainers_free(mt);
	/* Most specific first, as get_maintainer.pl, not in file order. */
	m = "MM\nM:\tMo <mo@x>\nF:\tmm/\n\n"
	    "SLAB\nM:\tSl <sl@x>\nL:\tslab@x (moderated)\nF:\tmm/slab.c\n"
	    "L:\tsubs@x\t(subscribers-only)\n";
	mt = maintainers_parse(m, strlen(m));
	maintainers_for(mt, "mm/slab.c", &to, &cc);
	assert_int_equal(to.n, 2);
	assert_string_equal(to.v[0], "Sl <sl@x>");
	assert_string_equal(to.v[1], "Mo <mo@x>");
	/* The note after a list is cut at a tab too (6.1's pvrusb2 list). */
	assert_int_equal(cc.n, 2);
	assert_string_equal(cc.v[0], "slab@x");
	assert_string_equal(cc.v[1], "subs@x");
	addr_list_free(&to);
	addr_list_free(&cc);
	maintainers_free(mt);
}

static void test_subsys(void **state)
{
	static const char *const cases[][3] = {
		{"fs/proc/base.c", "fs/proc", "fs/proc"},
		{"fs/open.c", "fs", "fs"},
		{"mm/shmem.c", "mm", "mm"},
		{"drivers/gpu/drm/i915/gem/x.c", "drivers/gpu/drm/i915",
		 "drm/i915"},
		{"drivers/net/ethernet/intel/e1000/x.c",
		 "drivers/net/ethernet/intel", "net: intel"},
		{"drivers/scsi/lpfc/x.c", "drivers/scsi/lpfc", "scsi: lpfc"},
		{"drivers/misc/x.c", "drivers/misc", "misc"},
		{"arch/powerpc/mm/x.c", "arch/powerpc", "powerpc"},
		{"net/sctp/x.c", "net/sctp", "net: sctp"},
		{"sound/core/x.c", "sound/core", "ALSA: core"},
		{"tools/perf/builtin-kmem.c", "tools/perf", "perf"},
		{"top.c", ".", "."},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *k = subsys_key(cases[i][0]),
		     *p = subsys_default_prefix(k);

		assert_string_equal(k, cases[i][1]);
		assert_string_equal(p, cases[i][2]);
		free(k);
		free(p);
	}
}

static void test_prefix_from_log(void **state)
{
	char *p;

	(void)state;
	p = subsys_prefix_from_log("drm/i915: fix a\nRevert \"x\"\n"
				   "drm/i915: fix b\ndrm: core\n"
				   "Merge tag 'x'\n");
	assert_string_equal(p, "drm/i915");
	free(p);
	p = subsys_prefix_from_log("net: mlx5: a\nnet: mlx5: b\nnet: c\n");
	assert_string_equal(p, "net: mlx5");
	free(p);
	assert_null(subsys_prefix_from_log("Fix the thing\nUpdate docs\n"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_token),
		cmocka_unit_test(test_stale),
		cmocka_unit_test(test_define_and_table),
		cmocka_unit_test(test_drop),
		cmocka_unit_test(test_no_trailing_newline),
		cmocka_unit_test(test_arg_add),
		cmocka_unit_test(test_arg_param),
		cmocka_unit_test(test_hunk_check),
		cmocka_unit_test(test_vpatch),
		cmocka_unit_test(test_maintainers),
		cmocka_unit_test(test_subsys),
		cmocka_unit_test(test_prefix_from_log),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
