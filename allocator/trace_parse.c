// SPDX-License-Identifier: GPL-2.0
/*
 * The kmem trace line parser (see allocator/trace.h), a pure function over
 * a line, and the whole-trace driver that counts what it could not parse.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "allocator/mmzone.h"
#include "allocator/trace.h"
#include "lib/ktree.h"
#include "lib/util.h"

int trace_format_for(const char *version, struct trace_format *fmt)
{
	struct kversion kv, v44, v514;

	if (kversion_parse(version, &kv) < 0)
		return -1;
	kversion_parse("4.4", &v44);
	kversion_parse("5.14", &v514);
	fmt->mt_after_44 = kversion_cmp(&kv, &v44) >= 0;
	fmt->pfn_hex = kversion_cmp(&kv, &v514) >= 0;
	return 0;
}

static int model_mt(const struct trace_format *fmt, long raw)
{
	/* before 4.4: UNMOVABLE, RECLAIMABLE, MOVABLE, RESERVE, ISOLATE */
	static const int old[] = {MIGRATE_UNMOVABLE, MIGRATE_RECLAIMABLE,
				  MIGRATE_MOVABLE, MIGRATE_RESERVE,
				  MIGRATE_ISOLATE};
	/* 4.4+: UNMOVABLE, MOVABLE, RECLAIMABLE, HIGHATOMIC, [CMA,] ISOLATE */
	static const int cur[] = {MIGRATE_UNMOVABLE, MIGRATE_MOVABLE,
				  MIGRATE_RECLAIMABLE, MIGRATE_HIGHATOMIC};

	if (raw < 0)
		return -1;
	if (fmt->mt_after_44)
		return raw < 4 ? cur[raw] : -1;
	return raw < 5 ? old[raw] : -1;
}

struct cur {
	const char *p, *end;
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool read_num(const char *p, const char *end, bool hex, uint64_t *v)
{
	/* 16 hex or 19 decimal digits always fit: no per-digit division */
	size_t n = (size_t)(end - p);
	uint64_t x = 0;

	if (n == 0 || n > (hex ? 16U : 19U))
		return false;
	if (!hex) {
		for (; p < end; p++) {
			if (!is_digit(*p))
				return false;
			x = x * 10 + (uint64_t)(*p - '0');
		}
	} else {
		for (; p < end; p++) {
			unsigned int d;

			if (is_digit(*p))
				d = (unsigned int)(*p - '0');
			else if (*p >= 'a' && *p <= 'f')
				d = (unsigned int)(*p - 'a' + 10);
			else if (*p >= 'A' && *p <= 'F')
				d = (unsigned int)(*p - 'A' + 10);
			else
				return false;
			x = x << 4 | d;
		}
	}
	*v = x;
	return true;
}

static bool read_small(const char *p, const char *end, long *v)
{
	uint64_t x;
	bool neg = p < end && *p == '-';

	if (!read_num(p + neg, end, false, &x) || x > 1000000)
		return false;
	*v = neg ? -(long)x : (long)x;
	return true;
}

/* The fields an event may carry; -1 / false when absent. */
struct fields {
	bool has_pfn, page_null;
	uint64_t pfn;
	long order, migratetype, alloc_order, fallback_order;
	long alloc_mt, fallback_mt, fragmenting, change_ownership;
};

/* Every field TYPE needs is in: the rest (gfp_flags, ...) is skipped. */
static bool fields_done(int type, const struct fields *f)
{
	if (!f->has_pfn)
		return false;
	switch (type) {
	case TEV_ALLOC:
		return f->order >= 0 && f->migratetype >= 0;
	case TEV_FREE:
		return f->order >= 0;
	case TEV_FREE_BATCHED:
		return true;
	default:
		return f->change_ownership >= 0;
	}
}

/* The small integer fields, by key. */
struct int_field {
	const char *key;
	size_t len, off;
	const char *err;
};

#define INT_FIELD(k, m)                                                        \
	{                                                                      \
		k, sizeof(k) - 1, offsetof(struct fields, m),                  \
			k "= is not a number"                                  \
	}
static const struct int_field int_fields[] = {
	INT_FIELD("order", order),
	INT_FIELD("migratetype", migratetype),
	INT_FIELD("alloc_order", alloc_order),
	INT_FIELD("fallback_order", fallback_order),
	INT_FIELD("alloc_migratetype", alloc_mt),
	INT_FIELD("fallback_migratetype", fallback_mt),
	INT_FIELD("fragmenting", fragmenting),
	INT_FIELD("change_ownership", change_ownership),
	{NULL, 0, 0, NULL},
};

static const char *parse_fields(struct cur c, const struct trace_format *fmt,
				int type, struct fields *f)
{
	memset(f, 0, sizeof(*f));
	f->order = f->migratetype = f->alloc_order = f->fallback_order = -1;
	f->alloc_mt = f->fallback_mt = f->fragmenting = f->change_ownership =
		-1;
	while (c.p < c.end) {
		const char *k, *eq, *v, *e;
		size_t kl;

		while (c.p < c.end && *c.p == ' ')
			c.p++;
		if (c.p == c.end)
			break;
		k = c.p;
		e = memchr(c.p, ' ', (size_t)(c.end - c.p));
		if (!e)
			e = c.end;
		eq = memchr(k, '=', (size_t)(e - k));
		if (!eq)
			return "a field is not key=value";
		kl = (size_t)(eq - k);
		v = eq + 1;
		c.p = e;
#define KEY(s) (kl == sizeof(s) - 1 && !memcmp(k, s, kl))
		if (KEY("page")) {
			f->page_null =
				(e - v == 6 && !memcmp(v, "(null)", 6)) ||
				(e - v == 16 &&
				 !memcmp(v, "0000000000000000", 16));
		} else if (KEY("pfn")) {
			bool hex = e - v > 2 && v[0] == '0' && v[1] == 'x';

			if (hex != fmt->pfn_hex)
				return fmt->pfn_hex
					       ? "pfn= is decimal, but this "
						 "kernel prints 0x%lx"
					       : "pfn= is hex, but this kernel "
						 "prints it in decimal";
			if (!read_num(v + (hex ? 2 : 0), e, hex, &f->pfn))
				return "pfn= is not a number";
			/* no machine has 2^52 page frames (and ~0 marks empty)
			 */
			if (f->pfn >> 52)
				return "pfn= out of range";
			f->has_pfn = true;
		} else {
			const struct int_field *i;

			for (i = int_fields; i->key; i++)
				if (kl == i->len && !memcmp(k, i->key, kl))
					break;
			if (i->key &&
			    !read_small(v, e, (long *)((char *)f + i->off)))
				return i->err;
		}
		/* gfp_flags, cold, pageblock_order, percpu_refill: not needed
		 */
#undef KEY
		if (fields_done(type, f))
			break;
	}
	return NULL;
}

/*
 * Find "TIMESTAMP: EVENT:" after the "[CPU]" column, which both
 * trace_pipe ("task-1 [001] d..1 12.345678: mm_page_free: ...") and perf
 * script ("task 1 [001] 12.345678: kmem:mm_page_free: ...") print.
 */
static bool find_event(struct cur *c, struct cur *name)
{
	const char *p = memchr(c->p, ']', (size_t)(c->end - c->p));

	if (!p)
		return false;
	for (p++; p < c->end; p++) {
		const char *q;

		if (!is_digit(*p))
			continue;
		q = p;
		while (q < c->end && is_digit(*q))
			q++;
		if (q == c->end || *q != '.')
			continue;
		q++;
		if (q == c->end || !is_digit(*q))
			continue;
		while (q < c->end && is_digit(*q))
			q++;
		if (c->end - q < 3 || q[0] != ':' || q[1] != ' ') {
			p = q;
			continue;
		}
		name->p = q + 2;
		q = name->p;
		while (q < c->end && *q != ' ')
			q++;
		/* "kmem:mm_page_alloc:" - the name ends at its last colon */
		if (q == name->p || q[-1] != ':')
			return false;
		name->end = q - 1;
		c->p = q;
		return true;
	}
	return false;
}

static bool name_is(const struct cur *n, const char *s, size_t l)
{
	size_t nl = (size_t)(n->end - n->p);

	if (nl == l && !memcmp(n->p, s, l))
		return true;
	return nl == l + 5 && !memcmp(n->p, "kmem:", 5) &&
	       !memcmp(n->p + 5, s, l);
}

#define NAME_IS(n, lit) name_is(n, lit, sizeof(lit) - 1)

enum trace_line_kind trace_parse_line(const char *p, size_t n,
				      const struct trace_format *fmt,
				      struct trace_event *ev, const char **why)
{
	struct cur c = {p, p + n}, name;
	struct fields f;
	const char *err;
	int mt;

	while (c.p < c.end && (*c.p == ' ' || *c.p == '\t'))
		c.p++;
	if (c.p == c.end)
		return TL_BLANK;
	if (*c.p == '#')
		return TL_COMMENT;
	*why = "no \"[CPU] TIMESTAMP: EVENT:\" in the line";
	if (!find_event(&c, &name))
		return TL_BAD;
	memset(ev, 0, sizeof(*ev));
	if (NAME_IS(&name, "mm_page_alloc"))
		ev->type = TEV_ALLOC;
	else if (NAME_IS(&name, "mm_page_free"))
		ev->type = TEV_FREE;
	else if (NAME_IS(&name, "mm_page_free_batched"))
		ev->type = TEV_FREE_BATCHED;
	else if (NAME_IS(&name, "mm_page_alloc_extfrag"))
		ev->type = TEV_EXTFRAG;
	else
		return TL_OTHER;
	err = parse_fields(c, fmt, ev->type, &f);
	if (err) {
		*why = err;
		return TL_BAD;
	}
	*why = "pfn= missing";
	if (!f.has_pfn)
		return TL_BAD;
	ev->pfn = f.pfn;
	switch (ev->type) {
	case TEV_ALLOC:
		*why = "mm_page_alloc needs order= and migratetype=";
		if (f.order < 0 || f.migratetype < 0)
			return TL_BAD;
		if (f.page_null)
			return TL_ALLOC_FAILED;
		mt = model_mt(fmt, f.migratetype);
		*why = "migratetype= out of range for this kernel";
		if (mt < 0)
			return TL_BAD;
		*why = "order= beyond MAX_ORDER";
		if (f.order >= MAX_ORDER)
			return TL_BAD;
		ev->order = (uint8_t)f.order;
		ev->mt = (uint8_t)mt;
		break;
	case TEV_FREE:
		*why = "mm_page_free needs order= below MAX_ORDER";
		if (f.order < 0 || f.order >= MAX_ORDER)
			return TL_BAD;
		ev->order = (uint8_t)f.order;
		break;
	case TEV_FREE_BATCHED:
		break;
	default:
		*why = "mm_page_alloc_extfrag needs its orders and "
		       "migratetypes";
		if (f.alloc_order < 0 || f.fallback_order < 0 ||
		    f.alloc_mt < 0 || f.fallback_mt < 0 ||
		    f.fallback_order >= MAX_ORDER)
			return TL_BAD;
		mt = model_mt(fmt, f.alloc_mt);
		*why = "alloc_migratetype= out of range for this kernel";
		if (mt < 0)
			return TL_BAD;
		ev->order = (uint8_t)f.fallback_order;
		ev->mt = (uint8_t)mt;
		ev->flags = (uint8_t)((f.fragmenting > 0) |
				      (f.change_ownership > 0) << 1);
		break;
	}
	return TL_EVENT;
}

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

void trace_parse_lines(struct trace_events *ev, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end, *why = NULL;
		struct trace_event e;

		ev->lines++;
		switch (trace_parse_line(p, (size_t)(le - p), &ev->fmt, &e,
					 &why)) {
		case TL_BLANK:
			break;
		case TL_COMMENT:
			ev->comments++;
			break;
		case TL_EVENT:
			ev->by_type[e.type]++;
			if (e.type == TEV_EXTFRAG) {
				ev->extfrag_fragmenting += e.flags & 1;
				ev->extfrag_change_ownership +=
					(e.flags >> 1) & 1;
			}
			push(ev, &e);
			break;
		case TL_ALLOC_FAILED:
			ev->failed_allocs++;
			break;
		case TL_OTHER:
			ev->other++;
			break;
		case TL_BAD:
			if (ev->first_bad_line < 0) {
				ev->first_bad_line = (long)ev->lines;
				ev->first_bad_why = why;
			}
			ev->unparseable++;
			break;
		}
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
	enum { CHUNK = 4 << 20 };
	char *buf = xmalloc(CHUNK + 1);
	size_t have = 0, n;
	bool started = false;

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
		"gfpaudit simulate: %s: kernel %s (%s): %lu lines, %lu "
		"mm_page_alloc, %lu mm_page_free, %lu mm_page_free_batched, "
		"%lu mm_page_alloc_extfrag (%lu fragmenting, %lu "
		"change_ownership), %lu failed allocations, %lu other events, "
		"%lu comments, %lu unparseable\n",
		name, ev->version, ev->version_from, ev->lines,
		ev->by_type[TEV_ALLOC], ev->by_type[TEV_FREE],
		ev->by_type[TEV_FREE_BATCHED], ev->by_type[TEV_EXTFRAG],
		ev->extfrag_fragmenting, ev->extfrag_change_ownership,
		ev->failed_allocs, ev->other, ev->comments, ev->unparseable);
	if (ev->unparseable)
		fprintf(out,
			"gfpaudit simulate: %s:%ld: first unparseable line: "
			"%s\n",
			name, ev->first_bad_line, ev->first_bad_why);
}
