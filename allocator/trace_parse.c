// SPDX-License-Identifier: GPL-2.0
/*
 * The kmem trace line parser (see allocator/trace.h), a pure function over
 * a line; allocator/trace_events.c drives it over a whole trace.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "allocator/mmzone.h"
#include "allocator/trace.h"
#include "lib/ktree.h"

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

int trace_model_mt(const struct trace_format *fmt, long raw)
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

/*
 * Writers separate columns by spaces, some by tabs; CRLF files happen.
 * A table: this is the parser's innermost test.
 */
static const bool space_tab[256] = {[' '] = true, ['\t'] = true, ['\r'] = true};

static bool is_space(char c)
{
	return space_tab[(unsigned char)c];
}

/* The next whitespace-separated token of C into T; false at the end. */
static bool next_token(struct cur *c, struct cur *t)
{
	while (c->p < c->end && is_space(*c->p))
		c->p++;
	if (c->p == c->end)
		return false;
	t->p = c->p;
	while (c->p < c->end && !is_space(*c->p))
		c->p++;
	t->end = c->p;
	return true;
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
	bool has_pfn, page_null, pfn_none;
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

/*
 * A NULL page as each writer prints %p: the kernel "(null)" (or, hashed,
 * zeros), glibc behind libtraceevent "(nil)", a raw field "0x0".
 */
static bool is_null_ptr(const char *v, const char *e)
{
	if ((e - v == 6 && !memcmp(v, "(null)", 6)) ||
	    (e - v == 5 && !memcmp(v, "(nil)", 5)))
		return true;
	if (e - v > 2 && v[0] == '0' && v[1] == 'x')
		v += 2;
	if (v == e)
		return false;
	for (; v < e; v++)
		if (*v != '0')
			return false;
	return true;
}

static const char *read_pfn(const char *v, const char *e,
			    const struct trace_format *fmt, struct fields *f)
{
	bool hex = e - v > 2 && v[0] == '0' && v[1] == 'x';

	/*
	 * -1UL, a failed allocation, as `trace-cmd report -R` prints the raw
	 * record (the print format makes it 0)
	 */
	if ((e - v == 18 && !memcmp(v, "0xffffffffffffffff", 18)) ||
	    (e - v == 20 && !memcmp(v, "18446744073709551615", 20))) {
		f->has_pfn = f->pfn_none = true;
		return NULL;
	}
	if (hex != fmt->pfn_hex)
		return fmt->pfn_hex ? "pfn= is decimal, but this kernel prints "
				      "0x%lx"
				    : "pfn= is hex, but this kernel prints it "
				      "in decimal";
	if (!read_num(v + (hex ? 2 : 0), e, hex, &f->pfn))
		return "pfn= is not a number";
	/* no machine has 2^52 page frames (and ~0 marks empty) */
	if (f->pfn >> 52)
		return "pfn= out of range";
	f->has_pfn = true;
	return NULL;
}

/*
 * next_token() for the fields, at memchr() speed: every writer separates
 * them by single spaces (a CRLF file's last one ends in '\r').
 */
static bool next_field(struct cur *c, struct cur *t)
{
	const char *e;

	while (c->p < c->end && is_space(*c->p))
		c->p++;
	if (c->p == c->end)
		return false;
	e = memchr(c->p, ' ', (size_t)(c->end - c->p));
	t->p = c->p;
	t->end = e ? e : c->end;
	c->p = t->end;
	while (t->end > t->p && is_space(t->end[-1]))
		t->end--;
	return true;
}

static const char *parse_fields(struct cur c, const struct trace_format *fmt,
				int type, struct fields *f)
{
	struct cur t;

	memset(f, 0, sizeof(*f));
	f->order = f->migratetype = f->alloc_order = f->fallback_order = -1;
	f->alloc_mt = f->fallback_mt = f->fragmenting = f->change_ownership =
		-1;
	while (next_field(&c, &t)) {
		const char *k = t.p, *e = t.end, *eq, *v;
		size_t kl;

		eq = memchr(k, '=', (size_t)(e - k));
		if (!eq)
			return "a field is not key=value";
		kl = (size_t)(eq - k);
		v = eq + 1;
#define KEY(s) (kl == sizeof(s) - 1 && !memcmp(k, s, kl))
		if (KEY("page")) {
			f->page_null = is_null_ptr(v, e);
		} else if (KEY("pfn")) {
			const char *err = read_pfn(v, e, fmt, f);

			if (err)
				return err;
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
 * A timestamp column: "12.345678:" (the kernel, perf, trace-cmd), a bare
 * count "1234:" (trace_clock counter, x86-tsc, uptime), or the latency
 * format's "798us+:" with its delay mark; *colon_next when the colon is
 * the next token ("798us :", no delay mark).
 */
static bool is_timestamp(const struct cur *t, bool *colon_next)
{
	const char *p = t->p, *end = t->end;

	if (p == end || !is_digit(*p))
		return false;
	while (p < end && is_digit(*p))
		p++;
	if (p < end && *p == '.') {
		p++;
		if (p == end || !is_digit(*p))
			return false;
		while (p < end && is_digit(*p))
			p++;
	}
	*colon_next = false;
	if (end - p >= 2 && p[0] == 'u' && p[1] == 's') {
		p += 2;
		if (p == end) {
			*colon_next = true;
			return true;
		}
		if (strchr("+!#*@$", *p))
			p++;
	}
	return end - p == 1 && *p == ':';
}

/* "mm_page_alloc:" or "kmem:mm_page_alloc:" (perf names the system) */
static bool is_event_name(const struct cur *t)
{
	const char *p;
	int colons = 0;

	if (t->end - t->p < 2 || t->end[-1] != ':' || t->p[0] == ':')
		return false;
	for (p = t->p; p < t->end - 1; p++) {
		if (*p == ':') {
			if (++colons > 1 || p[1] == ':')
				return false;
		} else if (!(is_digit(*p) || (*p >= 'a' && *p <= 'z') ||
			     (*p >= 'A' && *p <= 'Z') || *p == '_' ||
			     *p == '-' || *p == '.')) {
			return false;
		}
	}
	return true;
}

/* Columns some writers put between the timestamp and the event. */
static bool is_gap_column(const struct cur *t)
{
	const char *p;

	/* trace-cmd report --ts-diff: "(+23)" */
	if (t->end - t->p >= 3 && t->p[0] == '(' && t->end[-1] == ')')
		return true;
	/* perf script -F period: the sample period */
	for (p = t->p; p < t->end; p++)
		if (!is_digit(*p))
			return false;
	return true;
}

/*
 * Find "TIMESTAMP: EVENT:" in C, whatever columns come before the
 * timestamp (task-pid, "(tgid)", "[CPU]", irq flags, trace-cmd's buffer
 * name, perf's comm and tid: a comm may itself hold spaces or digits, so
 * a timestamp-like token not followed by an event name is passed over).
 * Without a timestamp (tracefs option context-info off) the event name
 * starts the line (*bare).  On success NAME is the name without its last
 * colon and C is left after it.
 */
/* After a timestamp at AFTER: gap columns, then the event name. */
static bool event_after(struct cur after, struct cur *c, struct cur *name)
{
	struct cur n;
	bool got;

	while ((got = next_token(&after, &n)) && is_gap_column(&n))
		;
	if (!got || !is_event_name(&n))
		return false;
	name->p = n.p;
	name->end = n.end - 1;
	c->p = n.end;
	return true;
}

static bool find_event(struct cur *c, struct cur *name, bool *bare)
{
	struct cur scan = *c, t, first = {NULL, NULL};
	const char *q = c->p;
	bool colon_next;

	*bare = false;
	/*
	 * The common case first, at memchr() speed: in the default layouts
	 * the first ": " ends the timestamp.
	 */
	while ((q = memchr(q, ':', (size_t)(c->end - q))) && q + 1 < c->end &&
	       !is_space(q[1]))
		q++;
	if (q && q + 1 < c->end) {
		t.end = q + 1;
		for (t.p = q; t.p > c->p && !is_space(t.p[-1]); t.p--)
			;
		if (is_timestamp(&t, &colon_next) &&
		    event_after((struct cur){t.end, c->end}, c, name))
			return true;
	}
	while (next_token(&scan, &t)) {
		struct cur after = scan, n;

		if (!first.p)
			first = t;
		if (!is_timestamp(&t, &colon_next))
			continue;
		if (colon_next && !(next_token(&after, &n) &&
				    n.end - n.p == 1 && *n.p == ':'))
			continue;
		if (event_after(after, c, name))
			return true;
	}
	if (first.p && is_event_name(&first)) {
		*bare = true;
		name->p = first.p;
		name->end = first.end - 1;
		c->p = first.end;
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

static bool has_prefix(const struct cur *c, const char *s)
{
	size_t l = strlen(s);

	return (size_t)(c->end - c->p) >= l && !memcmp(c->p, s, l);
}

static bool contains(const struct cur *c, const char *s)
{
	size_t l = strlen(s);

	return memmem(c->p, (size_t)(c->end - c->p), s, l) != NULL;
}

/*
 * Lines around the events that are not events: trace-cmd report's header
 * ("cpus=2", "CPU 1 is empty"), lost-event marks (the kernel's "CPU:1
 * [LOST 42 EVENTS]", trace-cmd's "CPU:1 [42 EVENTS DROPPED]"), and
 * ftrace's " => func" stack lines.  C starts at the first non-blank.  Only
 * prefixes are looked at: this runs for every line.
 */
static enum trace_line_kind aside(const struct cur *c, uint64_t *lost)
{
	const char *p;

	if (has_prefix(c, "cpus=") ||
	    (has_prefix(c, "CPU ") && contains(c, " is empty")))
		return TL_COMMENT;
	if (has_prefix(c, "CPU:") && contains(c, "EVENTS")) {
		*lost = 0;
		for (p = c->p; p < c->end && !is_digit(*p); p++)
			;
		/* past the CPU number, to the count if there is one */
		while (p < c->end && is_digit(*p))
			p++;
		while (p < c->end && !is_digit(*p))
			p++;
		while (p < c->end && is_digit(*p) && *lost < (1ULL << 60))
			*lost = *lost * 10 + (uint64_t)(*p++ - '0');
		return TL_LOST;
	}
	if (has_prefix(c, "=> "))
		return TL_STACK;
	return TL_BLANK;
}

/*
 * A line with no event that belongs to a stack trace: ftrace's
 * "<stack trace>" event (its own layout), perf -g's callchain line (an
 * indented return address first).
 */
static bool is_stack_line(const struct cur *c, bool indented)
{
	struct cur scan = *c, t;
	const char *p;

	if (contains(c, "<stack trace>") || contains(c, "<user stack trace>"))
		return true;
	if (!indented || !next_token(&scan, &t) || t.end - t.p < 6)
		return false;
	for (p = t.p; p < t.end; p++)
		if (!is_digit(*p) && !(*p >= 'a' && *p <= 'f'))
			return false;
	return true;
}

enum trace_line_kind trace_parse_line(const char *p, size_t n,
				      const struct trace_format *fmt,
				      struct trace_event *ev, const char **why)
{
	struct cur c = {p, p + n}, name;
	enum trace_line_kind kind;
	struct fields f;
	const char *err;
	uint64_t lost;
	bool bare;
	int mt;

	while (c.p < c.end && is_space(*c.p))
		c.p++;
	if (c.p == c.end)
		return TL_BLANK;
	if (*c.p == '#')
		return TL_COMMENT;
	kind = aside(&c, &lost);
	if (kind == TL_LOST) {
		memset(ev, 0, sizeof(*ev));
		ev->pfn = lost;
	}
	if (kind != TL_BLANK)
		return kind;
	*why = "no \"TIMESTAMP: EVENT:\" in the line";
	if (!find_event(&c, &name, &bare))
		return is_stack_line(&c, c.p > p) ? TL_STACK : TL_BAD;
	memset(ev, 0, sizeof(*ev));
	if (NAME_IS(&name, "mm_page_alloc"))
		ev->type = TEV_ALLOC;
	else if (NAME_IS(&name, "mm_page_free"))
		ev->type = TEV_FREE;
	else if (NAME_IS(&name, "mm_page_free_batched"))
		ev->type = TEV_FREE_BATCHED;
	else if (NAME_IS(&name, "mm_page_alloc_extfrag"))
		ev->type = TEV_EXTFRAG;
	else if (NAME_IS(&name, "mm_page_free_direct")) /* before 3.3 */
		ev->type = TEV_FREE;
	else if (NAME_IS(&name, "mm_pagevec_free")) /* before 3.3 */
		ev->type = TEV_FREE_BATCHED;
	else
		/* a bare "word:" is an event only if it is ours */
		return bare ? TL_BAD : TL_OTHER;
	err = parse_fields(c, fmt, ev->type, &f);
	if (err) {
		*why = err;
		return TL_BAD;
	}
	*why = "pfn= missing";
	if (!f.has_pfn)
		return TL_BAD;
	*why = "pfn= out of range";
	if (f.pfn_none && ev->type != TEV_ALLOC)
		return TL_BAD;
	ev->pfn = f.pfn;
	switch (ev->type) {
	case TEV_ALLOC:
		*why = "mm_page_alloc needs order= and migratetype=";
		if (f.order < 0 || f.migratetype < 0)
			return TL_BAD;
		/* the print format says pfn 0 for the NULL page */
		if (f.pfn_none || (f.page_null && f.pfn == 0))
			return TL_ALLOC_FAILED;
		mt = trace_model_mt(fmt, f.migratetype);
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
		mt = trace_model_mt(fmt, f.alloc_mt);
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
