/* SPDX-License-Identifier: BSD-3-Clause */
/* RFC 2544 charts as self-contained SVG: throughput, latency and frame loss. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/rfc2544.h"

#define W 760
#define H 440
#define ML 80	/* margins: left, right, top, bottom */
#define MR 190
#define MT 50
#define MB 60
#define MAX_POINTS (RFC_MAX_SIZES > RFC_MAX_LOSS_STEPS ? RFC_MAX_SIZES : RFC_MAX_LOSS_STEPS)
#define MAX_SERIES (RFC_MAX_SIZES + RFC_MAX_GOALS + 2)

struct series {
	char name[48];
	const char *color;
	bool dashed;
	unsigned int n;
	double x[MAX_POINTS], y[MAX_POINTS];
};

static const char *const palette[] = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
				       "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22" };

static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else
			fputc(*s, f);
	}
}

/* A round step giving about five intervals up to max. */
static double nice_step(double max)
{
	double raw = max / 5, mag = pow(10, floor(log10(raw))), f = raw / mag;

	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

static void svg_chart(FILE *f, const char *title, const char *xlabel, const char *ylabel,
		      const struct series *s, unsigned int ns, bool x_ticks_at_points)
{
	double xmin = INFINITY, xmax = -INFINITY, ymax = 0, step, v;
	unsigned int i, k;
	int pw = W - ML - MR, ph = H - MT - MB;

	for (i = 0; i < ns; i++)
		for (k = 0; k < s[i].n; k++) {
			xmin = fmin(xmin, s[i].x[k]);
			xmax = fmax(xmax, s[i].x[k]);
			ymax = fmax(ymax, s[i].y[k]);
		}
	if (!isfinite(xmin)) {
		xmin = 0;
		xmax = 1;
	}
	if (xmax <= xmin)
		xmax = xmin + 1;
	if (ymax <= 0)
		ymax = 1;
	step = nice_step(ymax * 1.05);
	ymax = ceil(ymax * 1.05 / step) * step;
#define PX(x) (ML + ((x) - xmin) / (xmax - xmin) * pw)
#define PY(y) (MT + ph - (y) / ymax * ph)
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		   "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
		   "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
		   "<text x=\"%d\" y=\"28\" font-size=\"16\" font-weight=\"bold\">%s</text>\n",
		W, H, W, H, ML, title);
	for (v = 0; v <= ymax + step / 2; v += step)
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
			   "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
			ML, PY(v), ML + pw, PY(v), ML - 6, PY(v) + 4, v);
	if (x_ticks_at_points && ns > 0) {
		for (k = 0; k < s[0].n; k++)
			fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g</text>\n",
				PX(s[0].x[k]), MT + ph + 18, s[0].x[k]);
	} else {
		double xs = nice_step(xmax - xmin);

		for (v = ceil(xmin / xs) * xs; v <= xmax + xs / 2; v += xs)
			fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g</text>\n",
				PX(v), MT + ph + 18, v);
	}
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n"
		   "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n"
		   "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n"
		   "<text transform=\"translate(18 %d) rotate(-90)\" text-anchor=\"middle\">%s</text>\n",
		ML, MT + ph, ML + pw, MT + ph, ML, MT, ML, MT + ph, ML + pw / 2, H - 18, xlabel,
		MT + ph / 2, ylabel);
	for (i = 0; i < ns; i++) {
		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"",
			s[i].color, s[i].dashed ? " stroke-dasharray=\"6 4\"" : "");
		for (k = 0; k < s[i].n; k++)
			fprintf(f, "%s%.1f,%.1f", k ? " " : "", PX(s[i].x[k]), PY(s[i].y[k]));
		fputs("\"/>\n", f);
		for (k = 0; k < s[i].n && !s[i].dashed; k++)
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n",
				PX(s[i].x[k]), PY(s[i].y[k]), s[i].color);
		fprintf(f, "<line x1=\"%d\" y1=\"%u\" x2=\"%d\" y2=\"%u\" stroke=\"%s\" "
			   "stroke-width=\"2\"%s/><text x=\"%d\" y=\"%u\">",
			W - MR + 12, MT + 10 + 20 * i, W - MR + 36, MT + 10 + 20 * i, s[i].color,
			s[i].dashed ? " stroke-dasharray=\"6 4\"" : "", W - MR + 42, MT + 14 + 20 * i);
		xml_text(f, s[i].name);
		fputs("</text>\n", f);
	}
	fputs("</svg>\n", f);
#undef PX
#undef PY
}

int rfc_write_svg_throughput(const struct rfc_report *r, FILE *f)
{
	struct series s[RFC_MAX_GOALS + 2];
	unsigned int i, g, ns = 0;
	bool line = r->cfg.line_gbps > 0;

	memset(s, 0, sizeof(s));
	for (g = 0; r->cfg.tests[RFC_TEST_THROUGHPUT] && g < r->cfg.nb_goals; g++, ns++) {
		snprintf(s[ns].name, sizeof(s[ns].name), "throughput, loss <= %g %%",
			 r->cfg.loss_goals_pct[g]);
		s[ns].color = palette[g];
	}
	if (line) {
		snprintf(s[ns].name, sizeof(s[ns].name), "line rate (%g Gbit/s)", r->cfg.line_gbps);
		s[ns].color = "#555";
		s[ns++].dashed = true;
	}
	snprintf(s[ns].name, sizeof(s[ns].name), "generator ceiling");
	s[ns].color = "#aaa";
	s[ns++].dashed = true;
	for (i = 0; i < r->nb_sizes && i < MAX_POINTS; i++) {
		const struct rfc_size_result *z = &r->sizes[i];
		unsigned int k = 0;

		for (g = 0; r->cfg.tests[RFC_TEST_THROUGHPUT] && g < r->cfg.nb_goals; g++, k++) {
			s[k].x[i] = z->frame_size;
			s[k].y[i] = z->throughput[g].pps / 1e6;
			s[k].n = i + 1;
		}
		if (line) {
			s[k].x[i] = z->frame_size;
			s[k].y[i] = z->line_pps / 1e6;
			s[k++].n = i + 1;
		}
		s[k].x[i] = z->frame_size;
		s[k].y[i] = z->ceiling_pps / 1e6;
		s[k].n = i + 1;
	}
	svg_chart(f, "RFC 2544 throughput", "frame size (bytes)", "Mpps", s, ns, true);
	return ferror(f) ? -EIO : 0;
}

int rfc_write_svg_latency(const struct rfc_report *r, FILE *f)
{
	static const char *const names[] = { "avg", "p99", "max" };
	struct series s[3];
	unsigned int i, k;

	memset(s, 0, sizeof(s));
	for (k = 0; k < 3; k++) {
		snprintf(s[k].name, sizeof(s[k].name), "%s", names[k]);
		s[k].color = palette[k];
	}
	for (i = 0; i < r->nb_sizes; i++) {
		const struct histogram *h = &r->sizes[i].latency_ns;
		double y[3];

		if (!r->sizes[i].have_latency)
			continue;
		y[0] = (double)h->sum / h->count / 1e3;
		y[1] = hist_quantile(h, 0.99) / 1e3;
		y[2] = h->max / 1e3;
		for (k = 0; k < 3 && s[k].n < MAX_POINTS; k++) {
			s[k].x[s[k].n] = r->sizes[i].frame_size;
			s[k].y[s[k].n++] = y[k];
		}
	}
	svg_chart(f, "RFC 2544 latency at the throughput rate", "frame size (bytes)", "µs", s, 3,
		  true);
	return ferror(f) ? -EIO : 0;
}

int rfc_write_svg_loss(const struct rfc_report *r, FILE *f)
{
	struct series s[RFC_MAX_SIZES];
	unsigned int i, k;

	memset(s, 0, sizeof(s));
	for (i = 0; i < r->nb_sizes; i++) {
		const struct rfc_size_result *z = &r->sizes[i];

		snprintf(s[i].name, sizeof(s[i].name), "%u B", z->frame_size);
		s[i].color = palette[i % (sizeof(palette) / sizeof(palette[0]))];
		/* ascending offered load, left to right */
		for (k = 0; k < z->nb_loss; k++) {
			s[i].x[z->nb_loss - 1 - k] = z->loss[k].pct_of_max;
			s[i].y[z->nb_loss - 1 - k] = z->loss[k].loss_pct;
		}
		s[i].n = z->nb_loss;
	}
	svg_chart(f, "RFC 2544 frame loss rate", "offered load (% of the maximum rate)",
		  "frame loss (%)", s, r->nb_sizes, false);
	return ferror(f) ? -EIO : 0;
}
