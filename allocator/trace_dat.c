// SPDX-License-Identifier: GPL-2.0
/*
 * trace-cmd's binary trace.dat, read with the field's own libraries:
 * libtracecmd walks the file's buffers and CPUs in time order,
 * libtraceevent decodes each record with the event formats the file
 * carries.  Fields are read by name, so the layout of whichever kernel
 * wrote the file (field offsets and sizes, pfn or struct page *, with or
 * without change_ownership) comes from the file, not from this code.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd.h>

#include "allocator/mmzone.h"
#include "allocator/trace.h"

/* What a kmem event's format offers, looked up once per event id. */
struct dat_event {
	int id;
	int type; /* enum trace_ev_type, or -1: not ours */
	struct tep_event *event;
	/* pfn (4.3+) or page (struct page *, before 4.3) */
	struct tep_format_field *pfn, *page;
	struct tep_format_field *order, *migratetype;
	struct tep_format_field *alloc_order, *fallback_order;
	struct tep_format_field *alloc_mt, *fallback_mt, *change_ownership;
};

struct dat_reader {
	struct trace_events *ev;
	struct tep_handle *tep;
	struct dat_event cache[64];
	int nr_cache;
	struct trace_seq seq;
	char error[128];
};

static const struct {
	const char *name;
	int type;
} dat_names[] = {
	{"mm_page_alloc", TEV_ALLOC},
	{"mm_page_free", TEV_FREE},
	{"mm_page_free_batched", TEV_FREE_BATCHED},
	{"mm_page_alloc_extfrag", TEV_EXTFRAG},
	/* before 3.3 */
	{"mm_page_free_direct", TEV_FREE},
	{"mm_pagevec_free", TEV_FREE_BATCHED},
};

static int dat_type(const struct tep_event *event)
{
	size_t i;

	if (!event->system || strcmp(event->system, "kmem"))
		return -1;
	for (i = 0; i < sizeof(dat_names) / sizeof(dat_names[0]); i++)
		if (!strcmp(event->name, dat_names[i].name))
			return dat_names[i].type;
	return -1;
}

/* The fields TYPE cannot do without; NULL when the format has them. */
static const char *missing_field(const struct dat_event *d)
{
	if (!d->pfn && !d->page)
		return "pfn (or page)";
	switch (d->type) {
	case TEV_ALLOC:
		if (!d->order)
			return "order";
		return d->migratetype ? NULL : "migratetype";
	case TEV_FREE:
		return d->order ? NULL : "order";
	case TEV_EXTFRAG:
		if (!d->alloc_order || !d->fallback_order)
			return "alloc_order and fallback_order";
		if (!d->alloc_mt || !d->fallback_mt)
			return "alloc_migratetype and fallback_migratetype";
		return NULL;
	default:
		return NULL;
	}
}

static struct dat_event *lookup(struct dat_reader *r, int id,
				struct dat_event *scratch)
{
	struct dat_event *d = scratch;
	struct tep_event *event;
	const char *miss;
	int i;

	for (i = 0; i < r->nr_cache; i++)
		if (r->cache[i].id == id)
			return &r->cache[i];
	if (r->nr_cache < (int)(sizeof(r->cache) / sizeof(r->cache[0])))
		d = &r->cache[r->nr_cache++];
	memset(d, 0, sizeof(*d));
	d->id = id;
	d->type = -1;
	event = tep_find_event(r->tep, id);
	if (!event)
		return d;
	d->event = event;
	d->type = dat_type(event);
	if (d->type < 0)
		return d;
	d->pfn = tep_find_field(event, "pfn");
	d->page = tep_find_field(event, "page");
	d->order = tep_find_field(event, "order");
	d->migratetype = tep_find_field(event, "migratetype");
	d->alloc_order = tep_find_field(event, "alloc_order");
	d->fallback_order = tep_find_field(event, "fallback_order");
	d->alloc_mt = tep_find_field(event, "alloc_migratetype");
	d->fallback_mt = tep_find_field(event, "fallback_migratetype");
	d->change_ownership = tep_find_field(event, "change_ownership");
	miss = missing_field(d);
	if (miss) {
		snprintf(r->error, sizeof(r->error),
			 "kmem:%s in this trace has no %s field", event->name,
			 miss);
		return NULL;
	}
	return d;
}

static bool num(struct tep_format_field *f, struct tep_record *rec,
		unsigned long long *v)
{
	return f && !tep_read_number_field(f, rec->data, v);
}

/*
 * A field's value as the signed int it is (orders and migratetypes are
 * int): tep_read_number_field() gives the raw bits, unsigned.
 */
static bool snum(struct tep_format_field *f, struct tep_record *rec, long *v)
{
	unsigned long long u;

	if (!num(f, rec, &u))
		return false;
	if (f->size == 4)
		*v = (int32_t)(uint32_t)u;
	else if (f->size == 2)
		*v = (int16_t)(uint16_t)u;
	else if (f->size == 1)
		*v = (int8_t)(uint8_t)u;
	else
		*v = (long)u;
	return true;
}

/*
 * fragmenting is no field: the print format computes it from the
 * kernel's pageblock_order, so let that format say it; if libtraceevent
 * cannot evaluate it, x86-64's pageblock_order (the model's) decides.
 */
static bool dat_fragmenting(struct dat_reader *r, struct tep_record *rec,
			    long fallback_order)
{
	const char *p;

	trace_seq_reset(&r->seq);
	tep_print_event(r->tep, &r->seq, rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&r->seq);
	p = r->seq.buffer ? strstr(r->seq.buffer, "fragmenting=") : NULL;
	if (p && (p[12] == '0' || p[12] == '1'))
		return p[12] == '1';
	return fallback_order < pageblock_order;
}

/* Decode one of our records into E; *why when it is unusable. */
static enum trace_line_kind dat_decode(struct dat_reader *r,
				       const struct dat_event *d,
				       struct tep_record *rec,
				       struct trace_event *e, const char **why)
{
	const struct trace_format *fmt = &r->ev->fmt;
	unsigned long long pfn, v;
	long order = 0, mt, amt, fmt_mt, ao, fo;
	bool none, owned;
	int m;

	memset(e, 0, sizeof(*e));
	e->type = (uint8_t)d->type;
	*why = "pfn unreadable";
	if (d->pfn) {
		if (!num(d->pfn, rec, &pfn))
			return TL_BAD;
		/* -1UL of the field's width: the allocation failed */
		none = d->pfn->size >= 8
			       ? pfn == ~0ULL
			       : pfn == (1ULL << (8 * d->pfn->size)) - 1;
	} else {
		/* the page pointer names the page as well as its pfn */
		if (!num(d->page, rec, &pfn))
			return TL_BAD;
		none = pfn == 0;
	}
	e->pfn = pfn;
	if (d->order) {
		*why = "order unreadable or beyond MAX_ORDER";
		if (!snum(d->order, rec, &order) || order < 0 ||
		    order >= MAX_ORDER)
			return none && d->type == TEV_ALLOC ? TL_ALLOC_FAILED
							    : TL_BAD;
	}
	switch (d->type) {
	case TEV_ALLOC:
		if (none)
			return TL_ALLOC_FAILED;
		*why = "migratetype unreadable or out of range for this kernel";
		if (!snum(d->migratetype, rec, &mt))
			return TL_BAD;
		m = trace_model_mt(fmt, mt);
		if (m < 0)
			return TL_BAD;
		e->order = (uint8_t)order;
		e->mt = (uint8_t)m;
		break;
	case TEV_FREE:
	case TEV_FREE_BATCHED:
		*why = "pfn is -1 (no page)";
		if (none)
			return TL_BAD;
		e->order = (uint8_t)order;
		break;
	default:
		*why = "alloc/fallback orders or migratetypes unreadable or "
		       "out of range";
		if (!snum(d->alloc_order, rec, &ao) ||
		    !snum(d->fallback_order, rec, &fo) ||
		    !snum(d->alloc_mt, rec, &amt) ||
		    !snum(d->fallback_mt, rec, &fmt_mt) || ao < 0 || fo < 0 ||
		    fo >= MAX_ORDER || fmt_mt < 0)
			return TL_BAD;
		m = trace_model_mt(fmt, amt);
		if (m < 0)
			return TL_BAD;
		e->order = (uint8_t)fo;
		e->mt = (uint8_t)m;
		/* before 4.x the format computed it: the types are equal */
		if (d->change_ownership)
			owned = num(d->change_ownership, rec, &v) && v;
		else
			owned = amt == fmt_mt;
		e->flags = (uint8_t)(owned << 1);
		e->flags |= dat_fragmenting(r, rec, fo);
		break;
	}
	return TL_EVENT;
}

static int dat_record(struct tracecmd_input *h, struct tep_record *rec, int cpu,
		      void *data)
{
	struct dat_reader *r = data;
	struct trace_events *ev = r->ev;
	struct trace_event e = {0};
	struct dat_event scratch, *d;
	enum trace_line_kind kind;
	const char *why = NULL;

	(void)h;
	ev->lines++;
	/* the ring buffer overflowed before this record */
	if (rec->missed_events) {
		e.pfn = rec->missed_events > 0
				? (unsigned long long)rec->missed_events
				: 0;
		trace_account(ev, TL_LOST, &e);
	}
	d = lookup(r, tep_data_type(r->tep, rec), &scratch);
	if (!d)
		return -1;
	if (d->type < 0) {
		trace_account(ev, TL_OTHER, &e);
		return 0;
	}
	kind = dat_decode(r, d, rec, &e, &why);
	if (kind == TL_BAD && ev->first_bad_line < 0) {
		char text[64];

		ev->first_bad_line = (long)ev->lines;
		ev->first_bad_why = why;
		snprintf(text, sizeof(text), "kmem:%s on CPU %d",
			 d->event->name, cpu);
		trace_note_bad_text(ev, text, strlen(text));
	}
	trace_account(ev, kind, &e);
	return 0;
}

/*
 * Without --kernel-version the formats date the kernel as far as the
 * model needs (the migratetype numbering changed in 4.4): a struct page
 * pointer was recorded before 4.3 ("tracing, mm: Record pfn instead of
 * pointer to struct page"), a pfn printed 0x%lx from 5.14; a pfn printed
 * decimal is 4.3-5.13, and only 4.3 numbers migratetypes the old way.
 * ev->version shows the range; the format follows its first kernel.
 */
static int dat_version(struct tep_handle *tep, const char *version,
		       struct trace_events *ev)
{
	static const char *const names[] = {"mm_page_alloc", "mm_page_free",
					    "mm_page_free_batched",
					    "mm_page_alloc_extfrag"};
	struct tep_event *event = NULL;
	const char *v = "6.1", *shown = "6.1";
	size_t i;

	ev->version_from = "assumed: no kmem page event format";
	for (i = 0; !event && i < sizeof(names) / sizeof(names[0]); i++)
		event = tep_find_event_by_name(tep, "kmem", names[i]);
	if (event && !tep_find_field(event, "pfn")) {
		v = "4.2";
		shown = "before 4.3";
		ev->version_from = "trace format: struct page pointer";
	} else if (event && event->print_fmt.format &&
		   strstr(event->print_fmt.format, "pfn=0x")) {
		v = "5.14";
		shown = "5.14 or later";
		ev->version_from = "trace format: pfn=0x%lx";
	} else if (event) {
		v = "4.4";
		shown = "4.4-5.13";
		ev->version_from = "trace format: decimal pfn; 4.3 needs "
				   "--kernel-version";
	}
	if (version) {
		v = shown = version;
		ev->version_from = "option";
	}
	snprintf(ev->version, sizeof(ev->version), "%s", shown);
	if (trace_format_for(v, &ev->fmt) < 0) {
		snprintf(ev->error, sizeof(ev->error),
			 "kernel version '%s' (from the option) is not "
			 "N.N[.N]",
			 v);
		return -1;
	}
	return 0;
}

int trace_dat_read(const char *path, const char *version,
		   struct trace_events *ev)
{
	struct tracecmd_input **handles;
	struct dat_reader r = {0};
	struct tracecmd_input *h;
	int nr, i, rc = 0;

	memset(ev, 0, sizeof(*ev));
	ev->first_bad_line = -1;
	ev->unit = "records";
	/* our own one-line errors say what went wrong, not the libraries */
	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS |
					TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (!h) {
		snprintf(ev->error, sizeof(ev->error),
			 "trace.dat magic, but libtracecmd cannot open it "
			 "(truncated, or a file version it does not know)");
		return -1;
	}
	r.ev = ev;
	r.tep = tracecmd_get_tep(h);
	if (dat_version(r.tep, version, ev) < 0) {
		tracecmd_close(h);
		return -1;
	}
	/* trace-cmd record -B: every buffer is part of the trace */
	nr = tracecmd_buffer_instances(h);
	handles = calloc((size_t)nr + 1, sizeof(*handles));
	if (!handles) {
		snprintf(ev->error, sizeof(ev->error), "out of memory");
		tracecmd_close(h);
		return -1;
	}
	handles[0] = h;
	for (i = 0; i < nr; i++) {
		handles[i + 1] = tracecmd_buffer_instance_handle(h, i);
		if (!handles[i + 1]) {
			const char *name = tracecmd_buffer_instance_name(h, i);

			snprintf(ev->error, sizeof(ev->error),
				 "libtracecmd cannot read buffer '%s'",
				 name ? name : "?");
			rc = -1;
			nr = i;
			break;
		}
	}
	trace_seq_init(&r.seq);
	if (!rc) {
		int ret = tracecmd_iterate_events_multi(handles, nr + 1,
							dat_record, &r);

		if (r.error[0] || ret < 0) {
			snprintf(ev->error, sizeof(ev->error), "%s",
				 r.error[0] ? r.error
					    : "libtracecmd cannot read the "
					      "records");
			rc = -1;
		}
	}
	trace_seq_destroy(&r.seq);
	for (i = nr; i >= 0; i--)
		tracecmd_close(handles[i]);
	free(handles);
	return rc;
}
