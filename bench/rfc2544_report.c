/* SPDX-License-Identifier: BSD-3-Clause */
/* RFC 2544 results as JSON, CSV, Markdown and a terminal summary. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/rfc2544.h"

static const char *const test_names[] = {
	[RFC_TEST_CEILING] = "ceiling", [RFC_TEST_THROUGHPUT] = "throughput",
	[RFC_TEST_LATENCY] = "latency", [RFC_TEST_LOSS] = "frame_loss",
	[RFC_TEST_B2B] = "back_to_back", [RFC_TEST_RECOVERY] = "recovery",
};

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static double pct_of_line(const struct rfc_size_result *s, double pps)
{
	return s->line_pps > 0 ? 100.0 * pps / s->line_pps : -1;
}

/* JSON has no NaN: an unknown percentage is null. */
static void json_pct(FILE *f, double v)
{
	if (v < 0)
		fputs("null", f);
	else
		fprintf(f, "%.3f", v);
}

int rfc_write_json(const struct rfc_report *r, FILE *f)
{
	const struct rfc_config *c = &r->cfg;
	unsigned int i, g, k;

	fprintf(f, "{\n  \"rfc\": 2544,\n  \"started\": \"%s\",\n  \"wall_s\": %.1f,\n", r->started,
		r->wall_s);
	fprintf(f, "  \"profile\": {\"quick\": %s, \"trial_s\": %g, \"latency_s\": %g, "
		   "\"resolution\": %g, \"max_trials\": %u, \"b2b_repeats\": %u, \"recovery_s\": %g, "
		   "\"line_gbps\": %g, \"bidirectional\": %s, \"ipv6\": %s, \"loss_goals_pct\": [",
		c->quick ? "true" : "false", c->trial_s, c->latency_s, c->resolution, c->max_trials,
		c->b2b_repeats, c->recovery_s, c->line_gbps, c->bidirectional ? "true" : "false",
		c->ipv6 ? "true" : "false");
	for (g = 0; g < c->nb_goals; g++)
		fprintf(f, "%s%g", g ? ", " : "", c->loss_goals_pct[g]);
	fputs("]},\n  \"generator\": ", f);
	json_string(f, r->generator);
	fputs(",\n  \"dut\": ", f);
	if (r->dut_info)
		json_string(f, r->dut_info);
	else
		fputs("null", f);
	fputs(",\n  \"sizes\": [\n", f);
	for (i = 0; i < r->nb_sizes; i++) {
		const struct rfc_size_result *s = &r->sizes[i];
		const struct histogram *h = &s->latency_ns;

		fprintf(f, "    {\"frame_size\": %u, \"line_pps\": %.0f, \"ceiling_pps\": %.0f, "
			   "\"max_pps\": %.0f,\n     \"throughput\": [", s->frame_size, s->line_pps,
			s->ceiling_pps, s->max_pps);
		for (g = 0; c->tests[RFC_TEST_THROUGHPUT] && g < c->nb_goals; g++) {
			fprintf(f, "%s{\"loss_goal_pct\": %g, \"pps\": %.0f, \"bps\": %.0f, "
				   "\"pct_of_line\": ", g ? ", " : "", s->throughput[g].goal_pct,
				s->throughput[g].pps, rfc_wire_bps(s->throughput[g].pps, s->frame_size));
			json_pct(f, pct_of_line(s, s->throughput[g].pps));
			fprintf(f, ", \"loss_pct\": %.6f, \"trials\": %u, \"generator_limited\": %s}",
				s->throughput[g].loss_pct, s->throughput[g].trials,
				s->throughput[g].generator_limited ? "true" : "false");
		}
		fputs("],\n     \"latency_ns\": ", f);
		if (s->have_latency) {
			fprintf(f, "{\"samples\": %lu, \"min\": %lu, \"avg\": %.0f, \"p50\": %lu, "
				   "\"p99\": %lu, \"max\": %lu, \"histogram\": [", h->count, h->min,
				(double)h->sum / h->count, hist_quantile(h, 0.5), hist_quantile(h, 0.99),
				h->max);
			for (k = 0, g = 0; k < HIST_BUCKETS; k++)
				if (h->bucket[k])
					fprintf(f, "%s[%lu, %lu]", g++ ? ", " : "", hist_bucket_low(k),
						h->bucket[k]);
			fputs("]}", f);
		} else {
			fputs("null", f);
		}
		fputs(",\n     \"frame_loss\": [", f);
		for (k = 0; k < s->nb_loss; k++)
			fprintf(f, "%s{\"pct_of_max\": %.0f, \"offered_pps\": %.0f, \"loss_pct\": %.6f}",
				k ? ", " : "", s->loss[k].pct_of_max, s->loss[k].offered_pps,
				s->loss[k].loss_pct);
		fputs("],\n     \"back_to_back\": ", f);
		if (s->have_b2b)
			fprintf(f, "{\"mean_frames\": %.1f, \"min_frames\": %lu, \"max_frames\": %lu, "
				   "\"runs\": %u, \"at_search_limit\": %s}", s->b2b_mean, s->b2b_min,
				s->b2b_max, s->b2b_runs, s->b2b_bounded ? "true" : "false");
		else
			fputs("null", f);
		fputs(",\n     \"recovery\": ", f);
		if (s->have_recovery && s->recovery_measurable)
			fprintf(f, "{\"overload_pps\": %.0f, \"recovery_s\": %.6f}",
				s->recovery_overload_pps, s->recovery_time_s);
		else if (s->have_recovery)
			fputs("{\"measurable\": false}", f);
		else
			fputs("null", f);
		fprintf(f, "}%s\n", i + 1 < r->nb_sizes ? "," : "");
	}
	fputs("  ],\n  \"trials\": [\n", f);
	for (i = 0; i < r->nb_trials; i++) {
		const struct rfc_trial_record *t = &r->trials[i];

		fprintf(f, "    {\"test\": \"%s\", \"frame_size\": %u, \"rate_pps\": %.0f, "
			   "\"tx_pps\": %.0f, \"tx\": %lu, \"rx\": %lu, \"loss_pct\": %.6f, "
			   "\"pass\": %s}%s\n", test_names[t->test], t->frame_size, t->rate_pps,
			t->tx_pps, t->tx, t->rx, t->loss_pct, t->pass ? "true" : "false",
			i + 1 < r->nb_trials ? "," : "");
	}
	fputs("  ]\n}\n", f);
	return ferror(f) ? -EIO : 0;
}

/* One row per frame size and measure: easy to load into a spreadsheet. */
int rfc_write_csv(const struct rfc_report *r, FILE *f)
{
	unsigned int i, g, k;

	fputs("frame_size,test,parameter,value,unit\n", f);
	for (i = 0; i < r->nb_sizes; i++) {
		const struct rfc_size_result *s = &r->sizes[i];
		const struct histogram *h = &s->latency_ns;
		unsigned int fs = s->frame_size;

		fprintf(f, "%u,line_rate,pps,%.0f,pps\n", fs, s->line_pps);
		fprintf(f, "%u,ceiling,pps,%.0f,pps\n", fs, s->ceiling_pps);
		for (g = 0; r->cfg.tests[RFC_TEST_THROUGHPUT] && g < r->cfg.nb_goals; g++) {
			fprintf(f, "%u,throughput,loss<=%g%%,%.0f,pps\n", fs, s->throughput[g].goal_pct,
				s->throughput[g].pps);
			if (s->line_pps > 0)
				fprintf(f, "%u,throughput,loss<=%g%%,%.3f,%%line\n", fs,
					s->throughput[g].goal_pct, pct_of_line(s, s->throughput[g].pps));
		}
		if (s->have_latency) {
			fprintf(f, "%u,latency,min,%lu,ns\n", fs, h->min);
			fprintf(f, "%u,latency,avg,%.0f,ns\n", fs, (double)h->sum / h->count);
			fprintf(f, "%u,latency,p50,%lu,ns\n", fs, hist_quantile(h, 0.5));
			fprintf(f, "%u,latency,p99,%lu,ns\n", fs, hist_quantile(h, 0.99));
			fprintf(f, "%u,latency,max,%lu,ns\n", fs, h->max);
		}
		for (k = 0; k < s->nb_loss; k++)
			fprintf(f, "%u,frame_loss,%.0f%%,%.6f,%%loss\n", fs, s->loss[k].pct_of_max,
				s->loss[k].loss_pct);
		if (s->have_b2b)
			fprintf(f, "%u,back_to_back,mean,%.1f,frames\n", fs, s->b2b_mean);
		if (s->have_recovery && s->recovery_measurable)
			fprintf(f, "%u,recovery,time,%.6f,s\n", fs, s->recovery_time_s);
	}
	return ferror(f) ? -EIO : 0;
}

static void fmt_rate(char *buf, size_t len, double pps)
{
	if (pps >= 1e6)
		snprintf(buf, len, "%.3f Mpps", pps / 1e6);
	else
		snprintf(buf, len, "%.1f kpps", pps / 1e3);
}

static void fmt_line(char *buf, size_t len, const struct rfc_size_result *s, double pps)
{
	if (s->line_pps > 0)
		snprintf(buf, len, "%.1f %%", pct_of_line(s, pps));
	else
		snprintf(buf, len, "n/a");
}

int rfc_write_markdown(const struct rfc_report *r, FILE *f)
{
	const struct rfc_config *c = &r->cfg;
	unsigned int i, g, k;
	char a[32], b[32], d[32];

	fprintf(f, "# RFC 2544 report\n\nStarted %s, %.0f s of testing. Profile: %s "
		   "(trials %g s, latency %g s, resolution %g %% of the maximum, back-to-back %u runs, "
		   "recovery %g s + %g s).\n\n", r->started, r->wall_s,
		c->quick ? "quick (not RFC durations: for CI and smoke tests)" : "RFC 2544",
		c->trial_s, c->latency_s, c->resolution * 100, c->b2b_repeats, c->recovery_s,
		c->recovery_s);
	fprintf(f, "Generator: %s.\n\n", r->generator[0] ? r->generator : "tern-bench");
	fputs(c->bidirectional ? "Traffic: bidirectional; every rate is the sum of both directions, "
				 "and the line rate is that of both ports.\n\n"
			       : "Traffic: unidirectional, first port to second.\n\n", f);
	if (c->line_gbps > 0)
		fprintf(f, "Line rate: %g Gbit/s ports, counting 20 bytes of preamble and inter-frame gap "
			   "per frame. Virtual ports (memif, TAP) report a nominal speed.\n\n", c->line_gbps);
	else
		fputs("Line rate: unknown (no port speed reported and no --line-rate), so no "
		      "percentages of it are given.\n\n", f);
	fputs("## Throughput (§26.1)\n\n| frame | loss goal | throughput | % of line | "
	      "generator ceiling | trials | note |\n|---|---|---|---|---|---|---|\n", f);
	for (i = 0; i < r->nb_sizes; i++) {
		const struct rfc_size_result *s = &r->sizes[i];

		for (g = 0; c->tests[RFC_TEST_THROUGHPUT] && g < c->nb_goals; g++) {
			fmt_rate(a, sizeof(a), s->throughput[g].pps);
			fmt_line(b, sizeof(b), s, s->throughput[g].pps);
			fmt_rate(d, sizeof(d), s->ceiling_pps);
			fprintf(f, "| %u B | %g %% | %s | %s | %s | %u | %s |\n", s->frame_size,
				s->throughput[g].goal_pct, a, b, d, s->throughput[g].trials,
				s->throughput[g].generator_limited ? "no loss at the generator's ceiling: the DUT may go faster"
				: s->throughput[g].pps <= 0 ? "no rate met the goal" : "");
		}
	}
	fputs("\n![throughput](throughput.svg)\n\n## Latency at the throughput rate (§26.2)\n\n"
	      "| frame | samples | min µs | avg µs | p50 µs | p99 µs | max µs |\n"
	      "|---|---|---|---|---|---|---|\n", f);
	for (i = 0; i < r->nb_sizes; i++) {
		const struct rfc_size_result *s = &r->sizes[i];
		const struct histogram *h = &s->latency_ns;

		if (!s->have_latency)
			continue;
		fprintf(f, "| %u B | %lu | %.2f | %.2f | %.2f | %.2f | %.2f |\n", s->frame_size,
			h->count, h->min / 1e3, (double)h->sum / h->count / 1e3,
			hist_quantile(h, 0.5) / 1e3, hist_quantile(h, 0.99) / 1e3, h->max / 1e3);
	}
	fputs("\n![latency](latency.svg)\n\n## Frame loss rate (§26.3)\n\n"
	      "| frame | % of maximum | offered | loss |\n|---|---|---|---|\n", f);
	for (i = 0; i < r->nb_sizes; i++)
		for (k = 0; k < r->sizes[i].nb_loss; k++) {
			fmt_rate(a, sizeof(a), r->sizes[i].loss[k].offered_pps);
			fprintf(f, "| %u B | %.0f %% | %s | %.4f %% |\n", r->sizes[i].frame_size,
				r->sizes[i].loss[k].pct_of_max, a, r->sizes[i].loss[k].loss_pct);
		}
	fputs("\n![frame loss](loss.svg)\n\n## Back-to-back frames (§26.4)\n\n"
	      "| frame | mean burst | min | max | runs | note |\n|---|---|---|---|---|---|\n", f);
	for (i = 0; i < r->nb_sizes; i++) {
		const struct rfc_size_result *s = &r->sizes[i];

		if (s->have_b2b)
			fprintf(f, "| %u B | %.1f frames | %lu | %lu | %u | %s |\n", s->frame_size,
				s->b2b_mean, s->b2b_min, s->b2b_max, s->b2b_runs,
				s->b2b_bounded ? "no loss up to the longest burst tried" : "");
	}
	fputs("\n## System recovery (§26.9)\n\n| frame | overload offered | recovery time |\n"
	      "|---|---|---|\n", f);
	for (i = 0; i < r->nb_sizes; i++) {
		const struct rfc_size_result *s = &r->sizes[i];

		if (!s->have_recovery)
			continue;
		if (!s->recovery_measurable) {
			fprintf(f, "| %u B | — | not measurable: the generator cannot offer more than the "
				   "throughput |\n", s->frame_size);
			continue;
		}
		fmt_rate(a, sizeof(a), s->recovery_overload_pps);
		fprintf(f, "| %u B | %s | %.3f ms |\n", s->frame_size, a, s->recovery_time_s * 1e3);
	}
	if (r->dut_info)
		fprintf(f, "\n## Device under test\n\n```\n%s\n```\n", r->dut_info);
	fprintf(f, "\nAll %u trials are listed in results.json.\n", r->nb_trials);
	return ferror(f) ? -EIO : 0;
}

void rfc_print_summary(const struct rfc_report *r, FILE *f)
{
	unsigned int i;
	char a[32], b[32], d[32];

	fprintf(f, "RFC 2544 summary (%s profile, %.0f s, %u trials)\n", r->cfg.quick ? "quick" : "RFC",
		r->wall_s, r->nb_trials);
	fprintf(f, "  %-6s %-14s %-9s %-14s %-22s %-12s %s\n", "frame", "throughput", "of line",
		"ceiling", "latency avg/p99 us", "b2b frames", "recovery");
	for (i = 0; i < r->nb_sizes; i++) {
		const struct rfc_size_result *s = &r->sizes[i];
		const struct histogram *h = &s->latency_ns;
		char lat[32] = "-", b2b[24] = "-", rec[24] = "-";

		fmt_rate(a, sizeof(a), s->throughput[0].pps);
		fmt_line(b, sizeof(b), s, s->throughput[0].pps);
		fmt_rate(d, sizeof(d), s->ceiling_pps);
		if (s->have_latency)
			snprintf(lat, sizeof(lat), "%.1f / %.1f", (double)h->sum / h->count / 1e3,
				 hist_quantile(h, 0.99) / 1e3);
		if (s->have_b2b)
			snprintf(b2b, sizeof(b2b), "%.0f%s", s->b2b_mean, s->b2b_bounded ? "+" : "");
		if (s->have_recovery)
			snprintf(rec, sizeof(rec), s->recovery_measurable ? "%.1f ms" : "n/a",
				 s->recovery_time_s * 1e3);
		fprintf(f, "  %-6u %-14s %-9s %-14s %-22s %-12s %s%s\n", s->frame_size, a, b, d, lat,
			b2b, rec, s->throughput[0].generator_limited ? "  (no loss at the generator's ceiling)" : "");
	}
}

static int write_one(const struct rfc_report *r, const char *dir, const char *name,
		     int (*fn)(const struct rfc_report *, FILE *), char *err, size_t errlen)
{
	char path[4096];
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f == NULL) {
		rc = -errno;
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		return rc;
	}
	rc = fn(r, f);
	if (fclose(f) != 0 && rc == 0)
		rc = -EIO;
	if (rc < 0)
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(-rc));
	return rc;
}

int rfc_write_all(const struct rfc_report *r, const char *dir, char *err, size_t errlen)
{
	static const struct {
		const char *name;
		int (*fn)(const struct rfc_report *, FILE *);
	} files[] = {
		{ "report.md", rfc_write_markdown }, { "results.json", rfc_write_json },
		{ "results.csv", rfc_write_csv }, { "throughput.svg", rfc_write_svg_throughput },
		{ "latency.svg", rfc_write_svg_latency }, { "loss.svg", rfc_write_svg_loss },
	};
	unsigned int i;
	int rc;

	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		rc = -errno;
		snprintf(err, errlen, "cannot make the directory %s: %s", dir, strerror(errno));
		return rc;
	}
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if ((rc = write_one(r, dir, files[i].name, files[i].fn, err, errlen)) < 0)
			return rc;
	return 0;
}
