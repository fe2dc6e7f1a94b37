/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The columns of the `sites` table, once, in table order (sparse's manner:
 * no include guard; define SITE_COL, include, and every macro of this file
 * is #undef'd at its end).  A new column used to be seven edits that had
 * to agree by hand; now it is a line here, its struct site field
 * (analyzer/walker.h), its migration (db/schema.c: migrations are history
 * and spell it out) and its row in docs/schema.md.  From this list come
 * the scan's INSERT and its binds (analyzer/fileproc.c, db/sites_cols.c),
 * site_release() (analyzer/lexscan.c), the copy `check` makes of a site
 * (analyzer/check.c) and the columns rules may name (rules/rule.c);
 * tests/t0007-sites-cols.sh checks that a migrated database's `sites` and
 * docs/schema.md are this list.
 *
 * SITE_COL(name, type, decl, value, rule)
 *   name   the column
 *   type   its SQL type, INTEGER or TEXT
 *   decl   the rest of its declaration as a fresh database has it
 *   value  what a scan writes there from `const struct site *s`:
 *	SV_NONE		  nothing: the row id, or set by a later step
 *	SV_FILE		  the files row of the site (its id)
 *	SV_STR(field)	  the malloc'd char * s->field, NULL as NULL; the
 *			  site owns it (released and copied with the site)
 *	SV_TEXT(expr)	  a string the site does not own (a label)
 *	SV_INT(expr)	  an integer
 *	SV_INT_IF(known, expr)  an integer, NULL unless known
 *   rule   RULE when a rule may name it (where:, {templates}), INTERNAL
 *	    for ids and the summaries step's working columns
 *
 * The expressions are C over `s`, expanded in analyzer/fileproc.c's
 * writer and analyzer/linkmemo.c's digest (confidence_of() is in
 * analyzer/fileproc.h).  The SV_* a user does not define
 * expand to nothing.
 */
#ifndef SITE_COL
#error "define SITE_COL(name, type, decl, value, rule) first"
#endif
#ifndef SV_NONE
#define SV_NONE
#endif
#ifndef SV_FILE
#define SV_FILE
#endif
#ifndef SV_STR
#define SV_STR(field)
#endif
#ifndef SV_TEXT
#define SV_TEXT(expr)
#endif
#ifndef SV_INT
#define SV_INT(expr)
#endif
#ifndef SV_INT_IF
#define SV_INT_IF(known, expr)
#endif

SITE_COL(id, INTEGER, "PRIMARY KEY", SV_NONE, INTERNAL)
SITE_COL(file_id, INTEGER, "NOT NULL", SV_FILE, INTERNAL)
SITE_COL(path, TEXT, "NOT NULL", SV_STR(path), RULE)
SITE_COL(line, INTEGER, "NOT NULL", SV_INT((int)s->line), RULE)
SITE_COL(col, INTEGER, "NOT NULL", SV_INT((int)s->col), RULE)
SITE_COL(function, TEXT, "", SV_STR(function), RULE)
SITE_COL(api, TEXT, "NOT NULL", SV_STR(api), RULE)
SITE_COL(api_origin, TEXT, "NOT NULL DEFAULT 'builtin'",
	 SV_TEXT(s->api_origin), RULE)
SITE_COL(flags, TEXT, "", SV_STR(flags), RULE)
SITE_COL(flags_line, INTEGER, "", SV_INT_IF(s->flags != NULL, s->flags_line),
	 RULE)
SITE_COL(flags_col, INTEGER, "", SV_INT_IF(s->flags != NULL, s->flags_col),
	 RULE)
SITE_COL(flags_via, TEXT, "", SV_STR(flags_via), RULE)
SITE_COL(flags_resolved, TEXT, "", SV_STR(flags_resolved), RULE)
SITE_COL(gfp_mask, INTEGER, "",
	 SV_INT_IF(s->mask_known, (long long)s->gfp_mask), RULE)
SITE_COL(migratetype, TEXT, "", SV_TEXT(s->migratetype), RULE)
SITE_COL(size, TEXT, "", SV_STR(size), RULE)
SITE_COL(size_const, INTEGER, "", SV_INT_IF(s->size_known, s->size_const),
	 RULE)
SITE_COL(macro, TEXT, "", SV_STR(macro), RULE)
SITE_COL(in_disabled_branch, INTEGER, "NOT NULL DEFAULT 0",
	 SV_INT(s->in_disabled_branch), RULE)
SITE_COL(lifetime, TEXT, "", SV_TEXT(s->lifetime), RULE)
SITE_COL(lifetime_evidence, TEXT, "", SV_STR(lifetime_evidence), RULE)
SITE_COL(lifetime_line, INTEGER, "",
	 SV_INT_IF(s->lifetime_line != 0, s->lifetime_line), RULE)
SITE_COL(held_across_sleep, INTEGER, "",
	 SV_INT_IF(s->held_across_sleep >= 0, s->held_across_sleep), RULE)
SITE_COL(sleep_evidence, TEXT, "", SV_STR(sleep_evidence), RULE)
SITE_COL(context, TEXT, "", SV_TEXT(s->context), RULE)
SITE_COL(context_evidence, TEXT, "", SV_STR(context_evidence), RULE)
SITE_COL(gfp_param, TEXT, "", SV_STR(gfp_param), RULE)
SITE_COL(flag_effective, INTEGER, "",
	 SV_INT_IF(s->flag_effective >= 0, s->flag_effective), RULE)
SITE_COL(flag_effective_reason, TEXT, "", SV_STR(flag_effective_reason),
	 RULE)
SITE_COL(confidence, TEXT, "", SV_TEXT(confidence_of(s->depth)), RULE)
SITE_COL(held_calls, TEXT, "", SV_STR(held_calls), INTERNAL)
SITE_COL(context_base, TEXT, "", SV_NONE, INTERNAL)
SITE_COL(flags_used, TEXT, "", SV_STR(flags_used), RULE)

#undef SITE_COL
#undef SV_NONE
#undef SV_FILE
#undef SV_STR
#undef SV_TEXT
#undef SV_INT
#undef SV_INT_IF
