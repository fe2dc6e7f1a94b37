/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_ALLOCATOR_TRACE_H
#define GFPAUDIT_ALLOCATOR_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "allocator/workload.h"

/*
 * kmem tracepoints as the kernel (trace, trace_pipe), `perf script` and
 * `trace-cmd report` print them (include/trace/events/kmem.h):
 *   mm_page_alloc: page=%p pfn=P order=%d migratetype=%d gfp_flags=%s
 *   mm_page_free: page=%p pfn=P order=%d
 *   mm_page_free_batched: page=%p pfn=P order=0 [cold=%d before 4.15]
 *   mm_page_alloc_extfrag: page=%p pfn=P alloc_order=%d fallback_order=%d
 *     pageblock_order=%d alloc_migratetype=%d fallback_migratetype=%d
 *     fragmenting=%d change_ownership=%d
 * Version-dependent: pfn is %lu before 5.14 and 0x%lx from 5.14 ("mm,
 * tracing: unify PFN format strings"); the migratetype integers are
 * UNMOVABLE 0, RECLAIMABLE 1, MOVABLE 2 before 4.4 and UNMOVABLE 0,
 * MOVABLE 1, RECLAIMABLE 2 from 4.4 (perf kmem still labels the old way).
 * Before 3.3 the frees were mm_page_free_direct and mm_pagevec_free.  A
 * failed allocation prints a NULL page and pfn=0 (the record holds -1UL).
 */
enum trace_ev_type {
	TEV_ALLOC,
	TEV_FREE,
	TEV_FREE_BATCHED,
	TEV_EXTFRAG,
};

struct trace_event {
	uint64_t pfn;
	uint8_t type;
	uint8_t order; /* alloc/free order; extfrag: fallback_order */
	uint8_t mt; /* model migratetype (alloc, extfrag alloc_migratetype) */
	uint8_t flags; /* extfrag: bit 0 fragmenting, bit 1 change_ownership */
};

struct trace_format {
	bool pfn_hex;	  /* 5.14+: pfn=0x%lx */
	bool mt_after_44; /* 4.4+: MOVABLE 1, RECLAIMABLE 2 */
};

enum trace_line_kind {
	TL_BLANK,
	TL_COMMENT,	 /* '#' lines, and writers' headers ("cpus=2") */
	TL_EVENT,	 /* a kmem page event, in *ev */
	TL_ALLOC_FAILED, /* mm_page_alloc of a failed allocation (page NULL) */
	TL_OTHER,	 /* another tracepoint: not ours, not an error */
	TL_BAD,		 /* unparseable: *why says why */
	TL_STACK,	 /* a stack trace line (perf -g, ftrace stacktrace) */
	TL_LOST,	 /* "CPU:1 [LOST 42 EVENTS]": ev->pfn is the number */
};

/*
 * Parse one line (no newline) of N bytes.  Pure: no allocation, no state;
 * fuzz targets call it directly.  The event is the first "[sys:]name:"
 * after the timestamp, whatever columns a writer puts around them (task
 * and pid, tgid, CPU, flags, trace-cmd's buffer name and --ts-diff, perf's
 * padding); without a timestamp (context-info off) the line starts with it.
 */
enum trace_line_kind trace_parse_line(const char *p, size_t n,
				      const struct trace_format *fmt,
				      struct trace_event *ev, const char **why);

/* Format of kernel VERSION ("4.13", "6.1.0-13-amd64"); -1 if malformed. */
int trace_format_for(const char *version, struct trace_format *fmt);

struct trace_events {
	struct trace_event *ev;
	size_t nr, alloc;
	unsigned long lines, comments, other, unparseable, failed_allocs;
	unsigned long stack_lines, lost_lines, lost_events;
	unsigned long by_type[4];
	unsigned long extfrag_fragmenting, extfrag_change_ownership;
	long first_bad_line;
	const char *first_bad_why;
	char first_bad_text[84]; /* the start of that line, printable */
	const char *unit;	 /* "lines", or "records" of a trace.dat */
	struct trace_format fmt;
	char version[64];
	const char *version_from; /* "option", "trace header", "assumed" */
	char error[160];
};

/*
 * Parse a whole trace.  VERSION (may be NULL) wins over a "# os release :"
 * header line (perf script --header); without either, 6.1 is assumed and
 * said.  Returns 0, or -1 with ev->error set (bad version).
 */
int trace_parse(const char *buf, size_t len, const char *version,
		struct trace_events *ev);
/* The same in steps: the header (first bytes) decides the format ... */
int trace_parse_init(struct trace_events *ev, const char *version,
		     const char *head, size_t len);
/* ... then whole lines, in order. */
void trace_parse_lines(struct trace_events *ev, const char *buf, size_t len);
/* Count a parsed line or record of KIND; an event E goes to ev->ev. */
void trace_account(struct trace_events *ev, enum trace_line_kind kind,
		   const struct trace_event *e);
/* The model migratetype of a traced one under FMT's numbering, or -1. */
int trace_model_mt(const struct trace_format *fmt, long raw);
/* Keep the start of the first bad line (or record) for the report. */
void trace_note_bad_text(struct trace_events *ev, const char *p, size_t n);
/* A file, read in chunks (traces can be larger than memory wants). */
int trace_parse_file(FILE *f, const char *version, struct trace_events *ev);
/* The same after the caller has read its first NPRE bytes, PRE. */
int trace_parse_stream(FILE *f, const char *pre, size_t npre,
		       const char *version, struct trace_events *ev);
void trace_events_free(struct trace_events *ev);
/* The counts, including unparseable lines and the first of them. */
void trace_report(FILE *out, const char *name, const struct trace_events *ev);
/*
 * More unparseable lines than kmem events: the trace is not what the
 * parser thinks it is (a wrong --kernel-version, an unknown layout), and
 * a replay of the few lines it did read would mislead.
 */
bool trace_mostly_unparseable(const struct trace_events *ev);

/* What a trace file holds, from its first bytes (never its name). */
enum trace_input_kind {
	TRACE_TEXT,
	TRACE_DAT,	 /* trace-cmd's trace.dat: "\x17\x08\x44tracing" */
	TRACE_PERF_DATA, /* perf.data: "PERFILE2" (or "PERFFILE", v1) */
};
enum trace_input_kind trace_input_kind(const unsigned char *head, size_t n);

/*
 * Read the trace at PATH, whichever kind it is: text through
 * trace_parse_file(), trace.dat through trace_dat_read().  Returns 0, or
 * -1 with ev->error set to one line naming what is wrong.
 */
int trace_read(const char *path, const char *version, struct trace_events *ev);
/*
 * trace-cmd's trace.dat through libtracecmd and libtraceevent: every
 * buffer of the file, records in time order, fields read by name with the
 * event formats the file carries.  VERSION (may be NULL) wins over what
 * the formats tell (pfn field and its print format).
 */
int trace_dat_read(const char *path, const char *version,
		   struct trace_events *ev);

/*
 * Replay the allocation requests of EV into a model zone under POLICY:
 * each traced pfn maps to the block the model chose; frees of pages
 * allocated before the trace started are counted (unknown_frees) and
 * skipped.  Then the state metrics, compaction at rest, the indices and
 * the order-9 probe as in run_workload().
 */
int trace_replay(const struct trace_events *ev,
		 const struct alloc_policy *policy,
		 const struct workload_config *cfg, struct sim_result *res);

#endif
