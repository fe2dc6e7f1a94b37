// SPDX-License-Identifier: GPL-2.0
/*
 * A whole kmem trace: the text driver over trace_parse_line() (the file
 * read in chunks, the kernel version from the header), the counts every
 * reader keeps (the trace.dat one too), and the report of them.
 */
#include <stdlib.h>
#include <string.h>

#include "allocator/trace.h"
#include "lib/util.h"

/* "# os release : 6.1.0-13-amd64" (perf script --header) */
static bool header_version(const char *p, const char *end, char *out,
			   size_t outlen)
{
	static const char key[] = "# os release :";
	size_t n = (size_t)(end - p), i = 0;

	if (n < sizeof(key) - 1 || memcmp(p, key, sizeof(key) - 1))
		return false;
	p += sizeof(key) - 1;
	while (p < end && *p == ' ')
		p++;
	while (p < end && *p != ' ' && i + 1 < outlen)
		out[i++] = *p++;
	out[i] = '\0';
	return i > 0;
}

static void push(struct trace_events *ev, const struct trace_event *e)
{
	if (ev->nr == ev->alloc) {
		ev->alloc = ev->alloc ? ev->alloc * 2 : 65536;
		ev->ev = xrealloc(ev->ev, ev->alloc * sizeof(*ev->ev));
	}
	ev->ev[ev->nr++] = *e;
}

int trace_parse_init(struct trace_events *ev, const char *version,
		     const char *head, size_t len)
{
	const char *end = head + len;

	memset(ev, 0, sizeof(*ev));
	ev->first_bad_line = -1;
	ev->unit = "lines";
	if (version) {
		snprintf(ev->version, sizeof(ev->version), "%s", version);
		ev->version_from = "option";
	} else {
		/* the header comes first: look only at leading comments */
		const char *q = head;

		while (q < end && *q == '#') {
			const char *nl = memchr(q, '\n', (size_t)(end - q));
			const char *le = nl ? nl : end;

			if (header_version(q, le, ev->version,
					   sizeof(ev->version))) {
				ev->version_from = "trace header";
				break;
			}
			q = nl ? nl + 1 : end;
		}
		if (!ev->version_from) {
			snprintf(ev->version, sizeof(ev->version), "6.1");
			ev->version_from = "assumed";
		}
	}
	if (trace_format_for(ev->version, &ev->fmt) < 0) {
		snprintf(ev->error, sizeof(ev->error),
			 "kernel version '%s' (from the %s) is not N.N[.N]",
			 ev->version, ev->version_from);
		return -1;
	}
	return 0;
}

void trace_note_bad_text(struct trace_events *ev, const char *p, size_t n)
{
	size_t i, max = sizeof(ev->first_bad_text) - 4;

	/* enough to recognise the line; control bytes would garble stderr */
	for (i = 0; i < n && i < max; i++)
		ev->first_bad_text[i] =
			(unsigned char)p[i] < 0x20 || p[i] == 0x7f ? '?' : p[i];
	if (i < n) {
		memcpy(ev->first_bad_text + i, "...", 3);
		i += 3;
	}
	ev->first_bad_text[i] = '\0';
}

void trace_account(struct trace_events *ev, enum trace_line_kind kind,
		   const struct trace_event *e)
{
	switch (kind) {
	case TL_BLANK:
		break;
	case TL_COMMENT:
		ev->comments++;
		break;
	case TL_EVENT:
		ev->by_type[e->type]++;
		if (e->type == TEV_EXTFRAG) {
			ev->extfrag_fragmenting += e->flags & 1;
			ev->extfrag_change_ownership += (e->flags >> 1) & 1;
		}
		push(ev, e);
		break;
	case TL_ALLOC_FAILED:
		ev->failed_allocs++;
		break;
	case TL_OTHER:
		ev->other++;
		break;
	case TL_STACK:
		ev->stack_lines++;
		break;
	case TL_LOST:
		ev->lost_lines++;
		ev->lost_events += e->pfn;
		break;
	case TL_BAD:
		ev->unparseable++;
		break;
	}
}

void trace_parse_lines(struct trace_events *ev, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end, *why = NULL;
		enum trace_line_kind kind;
		struct trace_event e;

		ev->lines++;
		kind = trace_parse_line(p, (size_t)(le - p), &ev->fmt, &e,
					&why);
		if (kind == TL_BAD && ev->first_bad_line < 0) {
			ev->first_bad_line = (long)ev->lines;
			ev->first_bad_why = why;
			trace_note_bad_text(ev, p, (size_t)(le - p));
		}
		trace_account(ev, kind, &e);
		p = nl ? nl + 1 : end;
	}
}

int trace_parse(const char *buf, size_t len, const char *version,
		struct trace_events *ev)
{
	if (trace_parse_init(ev, version, buf, len) < 0)
		return -1;
	trace_parse_lines(ev, buf, len);
	return 0;
}

int trace_parse_file(FILE *f, const char *version, struct trace_events *ev)
{
	return trace_parse_stream(f, NULL, 0, version, ev);
}

int trace_parse_stream(FILE *f, const char *pre, size_t npre,
		       const char *version, struct trace_events *ev)
{
	enum { CHUNK = 4 << 20 };
	char *buf = xmalloc(CHUNK + 1);
	size_t have = npre, n;
	bool started = false;

	/* the bytes the caller read to tell the kind of file */
	if (npre)
		memcpy(buf, pre, npre);
	for (;;) {
		size_t done;
		char *nl;

		n = fread(buf + have, 1, CHUNK - have, f);
		have += n;
		if (!started) {
			started = true;
			if (trace_parse_init(ev, version, buf, have) < 0) {
				free(buf);
				return -1;
			}
		}
		if (n == 0 || have < CHUNK) {
			if (ferror(f)) {
				snprintf(ev->error, sizeof(ev->error),
					 "read error");
				free(buf);
				return -1;
			}
			if (n == 0 || feof(f)) {
				trace_parse_lines(ev, buf, have);
				break;
			}
		}
		/* parse the complete lines, keep the partial last one */
		buf[have] = '\0';
		nl = memrchr(buf, '\n', have);
		if (!nl) {
			/* a 4 MB line: no kernel prints that */
			trace_parse_lines(ev, buf, have);
			have = 0;
			continue;
		}
		done = (size_t)(nl - buf) + 1;
		trace_parse_lines(ev, buf, done - 1);
		memmove(buf, buf + done, have - done);
		have -= done;
	}
	free(buf);
	return 0;
}

void trace_events_free(struct trace_events *ev)
{
	free(ev->ev);
	ev->ev = NULL;
	ev->nr = 0;
}

void trace_report(FILE *out, const char *name, const struct trace_events *ev)
{
	fprintf(out,
		"gfpaudit simulate: %s: kernel %s (%s): %lu %s, %lu "
		"mm_page_alloc, %lu mm_page_free, %lu mm_page_free_batched, "
		"%lu mm_page_alloc_extfrag (%lu fragmenting, %lu "
		"change_ownership), %lu failed allocations, %lu other events, "
		"%lu comments, %lu unparseable",
		name, ev->version, ev->version_from, ev->lines, ev->unit,
		ev->by_type[TEV_ALLOC], ev->by_type[TEV_FREE],
		ev->by_type[TEV_FREE_BATCHED], ev->by_type[TEV_EXTFRAG],
		ev->extfrag_fragmenting, ev->extfrag_change_ownership,
		ev->failed_allocs, ev->other, ev->comments, ev->unparseable);
	if (ev->stack_lines)
		fprintf(out, ", %lu stack trace lines", ev->stack_lines);
	/* lost events are why frees go unmatched: say so where it happened */
	if (ev->lost_lines)
		fprintf(out, ", %lu lost events (%lu marks)", ev->lost_events,
			ev->lost_lines);
	fprintf(out, "\n");
	if (ev->unparseable && !strcmp(ev->unit, "records"))
		fprintf(out,
			"gfpaudit simulate: %s: record %ld: first unreadable "
			"record: %s: %s\n",
			name, ev->first_bad_line, ev->first_bad_why,
			ev->first_bad_text);
	else if (ev->unparseable)
		fprintf(out,
			"gfpaudit simulate: %s:%ld: first unparseable line: "
			"%s: \"%s\"\n",
			name, ev->first_bad_line, ev->first_bad_why,
			ev->first_bad_text);
}

bool trace_mostly_unparseable(const struct trace_events *ev)
{
	return ev->unparseable > ev->nr + ev->failed_allocs;
}
