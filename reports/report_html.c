// SPDX-License-Identifier: GPL-2.0
/*
 * The HTML report: one self-contained file.  Styles are inline, charts are
 * inline SVG (reports/svg.c), there is no script, and a Content-Security-
 * Policy forbids every fetch, so opening it never touches the network.
 * Every database string goes through sb_add_xml().
 */
#include "reports/report.h"
#include "reports/svg.h"

#include <stdio.h>
#include <string.h>

static const char css[] =
	"body{font-family:sans-serif;margin:1.5em auto;max-width:1100px;"
	"color:#222}"
	"h1{border-bottom:2px solid #444}h2{margin-top:2em;"
	"border-bottom:1px solid #aaa}"
	"table{border-collapse:collapse;margin:.5em 0 1.5em}"
	"th,td{border:1px solid #bbb;padding:2px 6px;text-align:left;"
	"vertical-align:top}"
	"th{background:#eee}td.n{text-align:right}"
	"td.pass{background:#dfd}td.fail{background:#fdd}td.skip{"
	"background:#eee}td.inconclusive{background:#ffd}"
	"code,td.loc{font-family:monospace}"
	"svg.chart{display:block;margin:.5em 0 1.5em;font-size:12px}"
	"svg .ctitle{font-weight:bold;font-size:14px}"
	"svg .tick{font-size:10px;fill:#444}"
	"p.empty{color:#777;font-style:italic}";

/* A CSS class for cells whose value deserves one. */
static const char *cell_class(const struct rtable *t, int c, const char *v)
{
	if (t->numeric & (1u << (c & 31)))
		return "n";
	if (!strcmp(t->head[c], "result") &&
	    (!strcmp(v, "pass") || !strcmp(v, "fail") || !strcmp(v, "skip") ||
	     !strcmp(v, "inconclusive")))
		return v;
	if (!strcmp(t->head[c], "location"))
		return "loc";
	return NULL;
}

static void html_table(struct strbuf *sb, const char *id,
		       const struct rtable *t, const char *empty)
{
	size_t i;
	int c;

	if (!t->nrows) {
		sb_addf(sb, "<p class=\"empty\" id=\"%s\">", id);
		sb_add_xml(sb, empty);
		sb_adds(sb, "</p>\n");
		return;
	}
	sb_addf(sb, "<table id=\"%s\"><thead><tr>", id);
	for (c = 0; c < t->ncol; c++) {
		sb_adds(sb, "<th>");
		sb_add_xml(sb, t->head[c]);
		sb_adds(sb, "</th>");
	}
	sb_adds(sb, "</tr></thead>\n<tbody>\n");
	for (i = 0; i < t->nrows; i++) {
		sb_adds(sb, "<tr>");
		for (c = 0; c < t->ncol; c++) {
			const char *v = rt_cell(t, i, c);
			const char *cls = cell_class(t, c, v);

			if (cls)
				sb_addf(sb, "<td class=\"%s\">", cls);
			else
				sb_adds(sb, "<td>");
			sb_add_xml(sb, v);
			sb_adds(sb, "</td>");
		}
		sb_adds(sb, "</tr>\n");
	}
	sb_adds(sb, "</tbody></table>\n");
}

static void heading(struct strbuf *sb, int level, const char *id,
		    const char *text)
{
	sb_addf(sb, "<h%d id=\"%s\">", level, id);
	sb_add_xml(sb, text);
	sb_addf(sb, "</h%d>\n", level);
}

static const char *summary_value(const struct report *r, const char *key)
{
	size_t i;

	for (i = 0; i < r->summary.nrows; i++)
		if (!strcmp(rt_cell(&r->summary, i, 0), key))
			return rt_cell(&r->summary, i, 1);
	return "";
}

static void html_head(struct strbuf *sb, const struct report *r)
{
	sb_adds(sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
		    "<meta charset=\"utf-8\">\n"
		    "<meta http-equiv=\"Content-Security-Policy\" "
		    "content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
		    "<meta name=\"generator\" content=\"gfpaudit "
		    GFPAUDIT_VERSION "\">\n<title>gfpaudit report: ");
	sb_add_xml(sb, summary_value(r, "tree"));
	sb_addf(sb, "</title>\n<style>%s</style>\n</head>\n<body>\n", css);
	sb_adds(sb, "<h1>gfpaudit report</h1>\n<nav><ul>"
		    "<li><a href=\"#summary\">Run summary</a></li>"
		    "<li><a href=\"#subsystems\">Flags by subsystem</a></li>"
		    "<li><a href=\"#lifetimes\">Lifetime and context</a></li>"
		    "<li><a href=\"#findings\">Findings</a></li>"
		    "<li><a href=\"#patches\">Patch series</a></li>"
		    "<li><a href=\"#impact\">Allocator impact</a></li>"
		    "</ul></nav>\n");
}

static void html_curves(struct strbuf *sb, const struct report *r)
{
	size_t i;

	heading(sb, 3, "curves", "Fragmentation curves");
	if (!r->ncharts) {
		sb_adds(sb, "<p class=\"empty\">no simulation curves</p>\n");
		return;
	}
	for (i = 0; i < r->ncharts; i++) {
		char id[48];

		snprintf(id, sizeof(id), "chart-curve-%zu", i);
		svg_line_chart(sb, id, &r->charts[i], "workload step",
			       "free order-9 blocks");
	}
	html_table(sb, "curve-summary", &r->curve_summary, "");
}

void report_html(const struct report *r, struct strbuf *sb)
{
	html_head(sb, r);
	heading(sb, 2, "summary", "Run summary");
	html_table(sb, "summary-table", &r->summary, "no runs");
	heading(sb, 3, "parse-modes", "Parse modes");
	html_table(sb, "parse-modes-table", &r->parse_modes,
		   "no files scanned");

	heading(sb, 2, "subsystems", "Flags by subsystem");
	sb_adds(sb, "<p>Subsystems: ");
	sb_add_xml(sb, r->subsys_source);
	sb_adds(sb, "</p>\n");
	svg_bar_chart(sb, "chart-subsystems",
		      "Tracked flag uses per subsystem", &r->subsys_bars);
	html_table(sb, "subsystems-table", &r->by_subsys,
		   "no tracked flag is used");

	heading(sb, 2, "lifetimes", "Lifetime and context of allocation sites");
	svg_bar_chart(sb, "chart-lifetimes", "Allocation sites per lifetime",
		      &r->lifetime_bars);
	html_table(sb, "lifetime-table", &r->lifetime, "no allocation sites");
	html_table(sb, "context-table", &r->context, "no allocation sites");

	heading(sb, 2, "findings", "Findings");
	html_table(sb, "rules-table", &r->rules, "no findings");
	html_table(sb, "findings-table", &r->findings, "no findings");

	heading(sb, 2, "patches", "Patch series and validation");
	html_table(sb, "patches-table", &r->patches, "no patch series written");
	html_table(sb, "validations-table", &r->validations,
		   "no validation run");

	heading(sb, 2, "impact", "Allocator impact");
	heading(sb, 3, "rule-impact", "Rule impact (as-is vs patched)");
	html_table(sb, "impact-table", &r->impact, "no rule simulated");
	heading(sb, 3, "policies", "Policies (nogroup, 2.6.24, 6.1)");
	html_table(sb, "policies-table", &r->policies,
		   "no antifrag or trace simulation");
	html_curves(sb, r);
	sb_adds(sb, "</body>\n</html>\n");
}
