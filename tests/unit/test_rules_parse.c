// SPDX-License-Identifier: GPL-2.0
/* Unit tests for the rule-file parser (rules/rule.c): a pure function. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "rules/rule.h"

#include <string.h>

static const char good[] = "# a comment\n"
			   "name: demo\n"
			   "description: a demo rule\n"
			   "versions: >=2.6.24 <4.14\n"
			   "action: replace\n"
			   "flags: GFP_TEMPORARY, __GFP_RECLAIMABLE\n"
			   "replace: GFP_TEMPORARY GFP_KERNEL\n"
			   "replace: __GFP_RECLAIMABLE -\n"
			   "remove-definition: yes\n"
			   "subject: replace it\n"
			   "why: line one\n"
			   "why: .\n"
			   "why: line three\n"
			   "\n"
			   "match: sites\n"
			   "where: context = atomic\n"
			   "where: flags has-any GFP_KERNEL GFP_NOFS\n"
			   "where: gfp_param is-null\n"
			   "message: {api} in {function}\n";

static int parse(const char *s, struct rule *r, char *err)
{
	return rule_parse(s, strlen(s), "t.rule", r, err, 256);
}

static void test_good(void **state)
{
	struct rule r;
	char err[256];

	(void)state;
	assert_int_equal(parse(good, &r, err), 0);
	assert_string_equal(r.name, "demo");
	assert_int_equal(r.action, RULE_REPLACE);
	assert_int_equal(r.nflags, 2);
	assert_string_equal(r.flags[1], "__GFP_RECLAIMABLE");
	assert_int_equal(r.nsubst, 2);
	assert_string_equal(r.subst[0].to, "GFP_KERNEL");
	assert_null(r.subst[1].to);
	assert_true(r.remove_definition);
	assert_string_equal(r.why, "line one\n\nline three\n");
	assert_int_equal(r.nmatches, 1);
	assert_int_equal(r.matches[0].source, SRC_SITES);
	assert_int_equal(r.matches[0].nconds, 3);
	assert_int_equal(r.matches[0].conds[1].op, OP_HAS_ANY);
	assert_int_equal(r.matches[0].conds[1].nvalues, 2);
	assert_string_equal(r.matches[0].severity, "warning");
	rule_free(&r);
}

static void test_versions(void **state)
{
	struct rule r;
	struct kversion v;
	char err[256];

	(void)state;
	assert_int_equal(parse(good, &r, err), 0);
	kversion_parse("4.13", &v);
	assert_true(rule_applies(&r, &v));
	kversion_parse("4.14", &v);
	assert_false(rule_applies(&r, &v));
	kversion_parse("2.6.24", &v);
	assert_true(rule_applies(&r, &v));
	kversion_parse("2.6.23", &v);
	assert_false(rule_applies(&r, &v));
	rule_free(&r);
}

static void expect_error(const char *text, const char *want)
{
	struct rule r;
	char err[256];

	assert_int_equal(parse(text, &r, err), -1);
	if (!strstr(err, want))
		fail_msg("error '%s' lacks '%s'", err, want);
	assert_null(r.name); /* nothing left to free */
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("name: x\nbogus\n", "t.rule:2: want 'key: value'");
	expect_error("name: x\nname: y\n", "t.rule:2: name: given twice");
	expect_error("name: a b\n", "t.rule:1: name: 'a b'");
	expect_error("name: x\nversions: >4\n<3\n", "t.rule:3:");
	expect_error("name: x\nversions: ~4.1\n", "bad constraint '~4.1'");
	expect_error("name: x\naction: explode\n", "action: unknown 'explode'");
	expect_error("name: x\nmatch: nowhere\n", "match: unknown table");
	expect_error("name: x\nmatch: caches\nwhere: reclaimable\n",
		     "where: want COLUMN OP");
	expect_error("name: x\nmatch: caches\nwhere: reclaimable = 1 2\n",
		     "operator '=' takes one value");
	expect_error("name: x\nmatch: caches\nwhere: name has-any\n",
		     "takes one or more values");
	expect_error("name: x\nmatch: caches\nmessage: {name\n",
		     "unclosed '{'");
	expect_error("name: x\nreplace: A\n", "replace: want FROM TO");
	expect_error("name: x\nremove-definition: maybe\n", "want yes or no");
	expect_error("name: x\ncocci: ../x.cocci\n", "cocci: want a file name");
	expect_error("", "t.rule:1: missing 'name:'");
	expect_error("name: x\ndescription: d\nversions: all\n",
		     "missing 'flags:'");
	expect_error("name: x\ndescription: d\nversions: all\nflags: A\n"
		     "action: drop\nreplace: A -\n",
		     "needs 'subject:'");
	expect_error("name: x\ndescription: d\nversions: all\nflags: A\n"
		     "cocci-covers: all of it\nmatch: flag_uses\n"
		     "message: m\n",
		     "'cocci-covers:' without 'cocci:'");
}

static void test_truncated_buffer(void **state)
{
	struct rule r;
	char err[256];

	(void)state;
	/* Not NUL-terminated at len: the parser must stay inside. */
	assert_int_equal(rule_parse(good, 8, "t.rule", &r, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "missing"));
	/* A tiny error buffer is not overrun. */
	assert_int_equal(rule_parse("x", 1, "t.rule", &r, err, 4), -1);
	assert_int_equal(strlen(err), 3);
}

static void test_has_word(void **state)
{
	(void)state;
	assert_true(
		rule_has_word("GFP_TEMPORARY | __GFP_NOWARN", "GFP_TEMPORARY"));
	assert_false(rule_has_word("GFP_TEMPORARY_X", "GFP_TEMPORARY"));
	assert_false(rule_has_word("__GFP_KERNEL", "GFP_KERNEL"));
	assert_true(rule_has_word("(GFP_KERNEL)", "GFP_KERNEL"));
	assert_false(rule_has_word("x", ""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_versions),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_truncated_buffer),
		cmocka_unit_test(test_has_word),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
