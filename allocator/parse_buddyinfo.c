// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/buddyinfo: "Node N, zone NAME c0 c1 ... cK", one line per zone,
 * the counts being zone->free_area[order].nr_free (mm/vmstat.c
 * frag_show_print).  Pure function over a buffer.
 */
#include <stdio.h>
#include <string.h>

#include "allocator/procfs.h"
#include "allocator/textscan.h"

void frag_info_init(struct frag_info *fi)
{
	memset(fi, 0, sizeof(*fi));
	fi->pb_order = -1;
}

struct frag_zone *frag_zone_get(struct frag_info *fi, int node,
				const char *name)
{
	struct frag_zone *z;
	int i;

	for (i = 0; i < fi->nr_zones; i++)
		if (fi->zones[i].node == node &&
		    !strcmp(fi->zones[i].name, name))
			return &fi->zones[i];
	if (fi->nr_zones == FRAG_MAX_ZONES)
		return NULL;
	z = &fi->zones[fi->nr_zones++];
	memset(z, 0, sizeof(*z));
	z->node = node;
	snprintf(z->name, sizeof(z->name), "%s", name);
	return z;
}

int name_index(char (*names)[FRAG_NAME], int *nr, const char *name)
{
	int i;

	for (i = 0; i < *nr; i++)
		if (!strcmp(names[i], name))
			return i;
	if (*nr == FRAG_MAX_TYPES)
		return -1;
	snprintf(names[*nr], FRAG_NAME, "%s", name);
	return (*nr)++;
}

int frag_type_index(struct frag_info *fi, const char *name)
{
	return name_index(fi->types, &fi->nr_types, name);
}

int parse_fail(struct parse_error *err, int line, const char *msg)
{
	err->line = line;
	snprintf(err->msg, sizeof(err->msg), "%s", msg);
	return -1;
}

#define fail parse_fail

int parse_buddyinfo(const char *buf, size_t len, struct frag_info *fi,
		    struct parse_error *err)
{
	struct scan s;
	size_t pos = 0;
	int lineno = 0, zones = 0;

	while (next_line(buf, len, &pos, &s)) {
		char name[FRAG_NAME];
		struct frag_zone *z;
		unsigned long node;
		int o = 0;

		lineno++;
		if (scan_at_end(&s))
			continue;
		if (!scan_lit(&s, "Node") || !scan_ulong(&s, &node) ||
		    !scan_lit(&s, ",") || !scan_lit(&s, "zone") ||
		    !scan_word(&s, name, sizeof(name)))
			return fail(err, lineno,
				    "expected \"Node N, zone NAME count...\"");
		if (node > 65535)
			return fail(err, lineno, "node number out of range");
		z = frag_zone_get(fi, (int)node, name);
		if (!z)
			return fail(err, lineno, "too many zones");
		if (z->have_buddyinfo)
			return fail(err, lineno, "zone listed twice");
		while (!scan_at_end(&s)) {
			unsigned long v;

			if (o == FRAG_MAX_ORDERS)
				return fail(err, lineno,
					    "more orders than any kernel has");
			if (!scan_ulong(&s, &v) ||
			    (s.p < s.end && *s.p != ' ' && *s.p != '\t'))
				return fail(err, lineno,
					    "free block count is not a number");
			if (v > (FRAG_MAX_PAGES >> o))
				return fail(err, lineno,
					    "free block count too large for "
					    "its order");
			z->nr_free[o++] = v;
		}
		if (o == 0)
			return fail(err, lineno, "zone line has no counts");
		z->nr_orders = o;
		z->have_buddyinfo = true;
		zones++;
	}
	if (!zones)
		return fail(err, lineno ? lineno : 1, "no zones found");
	return 0;
}
