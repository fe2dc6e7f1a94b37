// SPDX-License-Identifier: GPL-2.0
/*
 * SVG charts.  Sizes are fixed (the report is read on a screen, not
 * printed); the data decide only the scales.  Long series are thinned to
 * at most MAX_POINTS points per line, keeping the first and the last.
 */
#include "reports/svg.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#define CHART_W 760
#define BAR_H 22
#define BAR_LABEL_W 300
#define BAR_AREA_W 360
#define LINE_H 320
#define M_LEFT 64
#define M_RIGHT 40
#define M_TOP 34
#define M_BOTTOM 64
#define MAX_POINTS 1000
#define LABEL_MAX 44

static const char *const palette[] = { "#1f77b4", "#d62728", "#2ca02c",
				       "#ff7f0e", "#9467bd", "#8c564b" };
#define NCOLORS (sizeof(palette) / sizeof(palette[0]))

void sb_add_xml(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': sb_adds(sb, "&amp;"); break;
		case '<': sb_adds(sb, "&lt;"); break;
		case '>': sb_adds(sb, "&gt;"); break;
		case '"': sb_adds(sb, "&quot;"); break;
		case '\'': sb_adds(sb, "&#39;"); break;
		default: sb_addc(sb, *s);
		}
	}
}

/* S shortened to LABEL_MAX bytes with an ellipsis (never mid-UTF-8). */
static void add_label(struct strbuf *sb, const char *s)
{
	size_t n = strlen(s);
	char *t;

	if (n <= LABEL_MAX) {
		sb_add_xml(sb, s);
		return;
	}
	n = LABEL_MAX - 3;
	while (n && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	t = xstrndup(s, n);
	sb_add_xml(sb, t);
	sb_adds(sb, "...");
	free(t);
}

static void fmt_num(char *buf, size_t n, double v)
{
	if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, n, "%.0f", v);
	else
		snprintf(buf, n, "%.2f", v);
}

static void svg_open(struct strbuf *sb, const char *cls, const char *id,
		     int h, const char *title)
{
	sb_addf(sb, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart "
		    "%s\" id=\"", cls);
	sb_add_xml(sb, id);
	sb_addf(sb, "\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		    "role=\"img\" aria-label=\"", CHART_W, h, CHART_W, h);
	sb_add_xml(sb, title);
	sb_adds(sb, "\">\n<title>");
	sb_add_xml(sb, title);
	sb_addf(sb, "</title>\n<text x=\"%d\" y=\"20\" class=\"ctitle\">",
		8);
	sb_add_xml(sb, title);
	sb_adds(sb, "</text>\n");
}

void svg_bar_chart(struct strbuf *sb, const char *id, const char *title,
		   const struct bars *b)
{
	int h = M_TOP + BAR_H * (int)(b->n ? b->n : 1) + 12;
	double max = 0;
	size_t i;

	for (i = 0; i < b->n; i++)
		if (b->v[i].value > max)
			max = b->v[i].value;
	svg_open(sb, "chart-bars", id, h, title);
	if (!b->n)
		sb_addf(sb, "<text x=\"8\" y=\"%d\">no data</text>\n",
			M_TOP + 14);
	for (i = 0; i < b->n; i++) {
		int y = M_TOP + BAR_H * (int)i;
		double w = max > 0 ? b->v[i].value / max * BAR_AREA_W : 0;
		char num[48];

		fmt_num(num, sizeof(num), b->v[i].value);
		sb_adds(sb, "<g class=\"bar\"><title>");
		sb_add_xml(sb, b->v[i].label);
		sb_addf(sb, ": %s</title>", num);
		sb_addf(sb, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">",
			BAR_LABEL_W - 6, y + 15);
		add_label(sb, b->v[i].label);
		sb_addf(sb, "</text><rect x=\"%d\" y=\"%d\" width=\"%.1f\" "
			    "height=\"%d\" fill=\"%s\"/>",
			BAR_LABEL_W, y + 3, w < 1 && b->v[i].value > 0 ? 1 : w,
			BAR_H - 6, palette[0]);
		sb_addf(sb, "<text x=\"%.1f\" y=\"%d\">%s</text></g>\n",
			BAR_LABEL_W + w + 6, y + 15, num);
	}
	sb_adds(sb, "</svg>\n");
}

/* A round step giving about N ticks over [0, span]. */
static double nice_step(double span, int n)
{
	double raw = span / n, mag, f;

	if (raw <= 0)
		return 1;
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

struct frame {
	double x0, x1, y1; /* data ranges (y from 0) */
	int w, h;	   /* plot area */
};

static double px(const struct frame *f, double x)
{
	return M_LEFT + (f->x1 > f->x0 ? (x - f->x0) / (f->x1 - f->x0) : 0) *
			f->w;
}

static double py(const struct frame *f, double y)
{
	return M_TOP + f->h - (f->y1 > 0 ? y / f->y1 : 0) * f->h;
}

static void draw_axes(struct strbuf *sb, const struct frame *f,
		      const char *xlabel, const char *ylabel)
{
	double step, v;
	char num[48];

	sb_addf(sb, "<g class=\"axes\" stroke=\"#444\"><line x1=\"%d\" "
		    "y1=\"%d\" x2=\"%d\" y2=\"%d\"/><line x1=\"%d\" y1=\"%d\" "
		    "x2=\"%d\" y2=\"%d\"/></g>\n",
		M_LEFT, M_TOP + f->h, M_LEFT + f->w, M_TOP + f->h, M_LEFT,
		M_TOP, M_LEFT, M_TOP + f->h);
	step = nice_step(f->y1, 5);
	for (v = 0; v <= f->y1 + step / 1e6; v += step) {
		fmt_num(num, sizeof(num), v);
		sb_addf(sb, "<text class=\"tick\" x=\"%d\" y=\"%.1f\" "
			    "text-anchor=\"end\">%s</text>\n",
			M_LEFT - 4, py(f, v) + 4, num);
	}
	step = nice_step(f->x1 - f->x0, 6);
	for (v = ceil(f->x0 / step) * step; v <= f->x1 + step / 1e6;
	     v += step) {
		fmt_num(num, sizeof(num), v);
		sb_addf(sb, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" "
			    "text-anchor=\"middle\">%s</text>\n",
			px(f, v), M_TOP + f->h + 16, num);
	}
	sb_addf(sb, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
		M_LEFT + f->w / 2, M_TOP + f->h + 34);
	sb_add_xml(sb, xlabel);
	sb_addf(sb, "</text>\n<text x=\"14\" y=\"%d\" text-anchor=\"middle\" "
		    "transform=\"rotate(-90 14 %d)\">",
		M_TOP + f->h / 2, M_TOP + f->h / 2);
	sb_add_xml(sb, ylabel);
	sb_adds(sb, "</text>\n");
}

static void draw_series(struct strbuf *sb, const struct frame *f,
			const struct series *s, size_t idx)
{
	size_t stride = s->n > MAX_POINTS ? (s->n + MAX_POINTS - 1) /
						    MAX_POINTS : 1, i;
	int lx = M_LEFT + 10 + (int)idx * 150;

	sb_adds(sb, "<g class=\"series\"><title>");
	sb_add_xml(sb, s->name);
	/* Every other line dashed, so that equal curves stay visible. */
	sb_addf(sb, "</title><polyline fill=\"none\" stroke=\"%s\" "
		    "stroke-width=\"2\"%s points=\"", palette[idx % NCOLORS],
		idx % 2 ? " stroke-dasharray=\"7 4\"" : "");
	for (i = 0; i < s->n; i += stride)
		sb_addf(sb, "%.1f,%.1f ", px(f, (double)s->x[i]),
			py(f, s->y[i]));
	if ((s->n - 1) % stride)
		sb_addf(sb, "%.1f,%.1f", px(f, (double)s->x[s->n - 1]),
			py(f, s->y[s->n - 1]));
	sb_adds(sb, "\"/>");
	/* Legend entry, below the x label. */
	sb_addf(sb, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"4\" "
		    "fill=\"%s\"/><text x=\"%d\" y=\"%d\">",
		lx, LINE_H - 12, palette[idx % NCOLORS], lx + 18, LINE_H - 7);
	add_label(sb, s->name);
	sb_adds(sb, "</text></g>\n");
}

void svg_line_chart(struct strbuf *sb, const char *id, const struct chart *c,
		    const char *xlabel, const char *ylabel)
{
	struct frame f = { 0, 0, 0, CHART_W - M_LEFT - M_RIGHT,
			   LINE_H - M_TOP - M_BOTTOM };
	int first = 1;
	size_t i, j;

	for (i = 0; i < c->n; i++)
		for (j = 0; j < c->s[i].n; j++) {
			double x = (double)c->s[i].x[j];

			if (first || x < f.x0)
				f.x0 = x;
			if (first || x > f.x1)
				f.x1 = x;
			if (c->s[i].y[j] > f.y1)
				f.y1 = c->s[i].y[j];
			first = 0;
		}
	f.y1 = f.y1 > 0 ? f.y1 * 1.05 : 1;
	svg_open(sb, "chart-lines", id, LINE_H, c->title);
	draw_axes(sb, &f, xlabel, ylabel);
	for (i = 0; i < c->n; i++)
		if (c->s[i].n)
			draw_series(sb, &f, &c->s[i], i);
	sb_adds(sb, "</svg>\n");
}
