/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_SVG_H
#define GFPAUDIT_SVG_H

#include "reports/report.h"

/*
 * Inline SVG charts for the HTML report: plain SVG 1.1 markup with no
 * script, font or stylesheet outside the document, so the report renders
 * the same offline.  Every text is XML-escaped.
 */

/* Append S with &, <, >, " and ' escaped (for HTML and SVG alike). */
void sb_add_xml(struct strbuf *sb, const char *s);

/* Horizontal bars, one per entry, largest scale first; ID names the svg. */
void svg_bar_chart(struct strbuf *sb, const char *id, const char *title,
		   const struct bars *b);

/* One polyline per series of C, with axes, ticks and a legend. */
void svg_line_chart(struct strbuf *sb, const char *id, const struct chart *c,
		    const char *xlabel, const char *ylabel);

#endif
