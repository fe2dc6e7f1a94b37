// SPDX-License-Identifier: GPL-2.0
/*
 * The Markdown report (GitHub-flavoured tables).  Cells that contain
 * Markdown punctuation are written as code spans, so that identifiers like
 * __GFP_RECLAIMABLE stay literal without a backslash before every '_'.
 */
#include "reports/report.h"

#include <string.h>

static void md_cell(struct strbuf *sb, const char *s)
{
	int code = strpbrk(s, "_*[]<>`\\&#~") != NULL;

	if (!*s)
		return;
	if (code)
		sb_addc(sb, '`');
	for (; *s; s++) {
		if (*s == '|')
			sb_adds(sb, "\\|");
		else if (*s == '\n' || *s == '\r' || *s == '\t')
			sb_addc(sb, ' ');
		else if (*s == '`')
			sb_addc(sb, '\'');
		else
			sb_addc(sb, *s);
	}
	if (code)
		sb_addc(sb, '`');
}

static void md_table(struct strbuf *sb, const struct rtable *t,
		     const char *empty)
{
	size_t i;
	int c;

	if (!t->nrows) {
		sb_addf(sb, "_%s_\n\n", empty);
		return;
	}
	sb_adds(sb, "|");
	for (c = 0; c < t->ncol; c++) {
		sb_addc(sb, ' ');
		md_cell(sb, t->head[c]);
		sb_adds(sb, " |");
	}
	sb_adds(sb, "\n|");
	for (c = 0; c < t->ncol; c++)
		sb_adds(sb, t->numeric & (1u << (c & 31)) ? "---:|" : "---|");
	sb_addc(sb, '\n');
	for (i = 0; i < t->nrows; i++) {
		sb_adds(sb, "|");
		for (c = 0; c < t->ncol; c++) {
			sb_addc(sb, ' ');
			md_cell(sb, rt_cell(t, i, c));
			sb_adds(sb, " |");
		}
		sb_addc(sb, '\n');
	}
	sb_addc(sb, '\n');
}

void report_md(const struct report *r, struct strbuf *sb)
{
	sb_adds(sb, "# gfpaudit report\n\n## Run summary\n\n");
	md_table(sb, &r->summary, "no runs");
	sb_adds(sb, "### Parse modes\n\n");
	md_table(sb, &r->parse_modes, "no files scanned");

	sb_adds(sb, "## Flags by subsystem\n\nSubsystems: ");
	md_cell(sb, r->subsys_source);
	sb_adds(sb, "\n\n");
	md_table(sb, &r->by_subsys, "no tracked flag is used");

	sb_adds(sb, "## Lifetime and context of allocation sites\n\n"
		    "### Lifetime\n\n");
	md_table(sb, &r->lifetime, "no allocation sites");
	sb_adds(sb, "### Context\n\n");
	md_table(sb, &r->context, "no allocation sites");

	sb_adds(sb, "## Findings\n\n### By rule\n\n");
	md_table(sb, &r->rules, "no findings");
	sb_addf(sb, "### All findings (%zu)\n\n", r->findings.nrows);
	if (r->baseline)
		sb_addf(sb, "Against the baseline: %s. New findings first.\n\n",
			r->baseline);
	md_table(sb, &r->findings, "no findings");

	sb_adds(sb, "## Patch series and validation\n\n### Patches\n\n");
	md_table(sb, &r->patches, "no patch series written");
	sb_adds(sb, "### Validation\n\n");
	md_table(sb, &r->validations, "no validation run");

	sb_adds(sb, "## Allocator impact\n\n### Rule impact (as-is vs patched)\n\n");
	md_table(sb, &r->impact, "no rule simulated");
	sb_adds(sb, "### Policies (nogroup, 2.6.24, 6.1)\n\n");
	md_table(sb, &r->policies, "no antifrag or trace simulation");
	sb_adds(sb, "### Fragmentation curves (free order-9 blocks)\n\n");
	md_table(sb, &r->curve_summary, "no simulation curves");
}
