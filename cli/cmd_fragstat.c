// SPDX-License-Identifier: GPL-2.0
/*
 * gfpaudit fragstat: the fragmentation indices of a real system, computed
 * from its /proc/buddyinfo (and /proc/pagetypeinfo, page_owner) by the same
 * mm/vmstat.c code the allocator model uses.
 */
#include "allocator/procfs.h"
#include "allocator/vmstat.h"
#include "cli/cli.h"
#include "lib/util.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char usage_fragstat[] =
	"usage: gfpaudit fragstat [--buddyinfo FILE] [--pagetypeinfo FILE]\n"
	"                         [--page-owner FILE] [--tsv]\n"
	"\n"
	"Per zone and order: free blocks and pages, the unusable free space\n"
	"index and the fragmentation index of mm/vmstat.c (value/1000, as\n"
	"debugfs extfrag/ prints them; -1.000: the order would succeed).\n"
	"Without file options, reads /proc/buddyinfo and, when readable (it "
	"is\n"
	"root-only on recent kernels), /proc/pagetypeinfo.\n"
	"\n"
	"  --buddyinfo FILE    a /proc/buddyinfo capture\n"
	"  --pagetypeinfo FILE a /proc/pagetypeinfo capture: adds the free\n"
	"                      blocks per migratetype, pageblock counts and, "
	"with\n"
	"                      page_owner, mixed pageblocks (counts shown as\n"
	"                      \">100000\" are capped and reported as such)\n"
	"  --page-owner FILE   a /sys/kernel/debug/page_owner dump: count the\n"
	"                      mixed pageblocks it shows\n"
	"  --tsv               header line naming node, zone, order, "
	"free_blocks,\n"
	"                      free_pages, unusable_index, "
	"fragmentation_index, then\n"
	"                      one free_<type> column per migratetype and "
	"capped\n";

typedef int (*parse_fn)(const char *, size_t, struct frag_info *,
			struct parse_error *);

/* 0 parsed, 1 optional file not readable, -1 error (reported) */
static int load(const char *path, bool optional, parse_fn fn,
		struct frag_info *fi)
{
	struct parse_error err = {0, ""};
	size_t len;
	char *buf;

	if (read_whole_file(path, &buf, &len) < 0) {
		if (optional &&
		    (errno == EACCES || errno == EPERM || errno == ENOENT))
			return 1;
		error_msg("fragstat: %s: %s", path, strerror(errno));
		return -1;
	}
	if (fn(buf, len, fi, &err) < 0) {
		error_msg("fragstat: %s:%d: %s", path, err.line, err.msg);
		free(buf);
		return -1;
	}
	free(buf);
	return 0;
}

static int load_page_owner(const char *path, struct page_owner_stats *st)
{
	struct parse_error err = {0, ""};
	size_t len;
	char *buf;
	int rc;

	if (read_whole_file(path, &buf, &len) < 0) {
		error_msg("fragstat: %s: %s", path, strerror(errno));
		return -1;
	}
	rc = parse_page_owner(buf, len, st, &err);
	free(buf);
	if (rc < 0)
		error_msg("fragstat: %s:%d: %s", path, err.line, err.msg);
	return rc;
}

/* nr_free per order, from buddyinfo or else summed from pagetypeinfo */
static bool zone_counts(const struct frag_info *fi, const struct frag_zone *z,
			unsigned long *nr_free, int o, bool *capped)
{
	int t;

	*capped = false;
	if (z->have_buddyinfo) {
		*nr_free = z->nr_free[o];
		return true;
	}
	*nr_free = 0;
	for (t = 0; t < fi->nr_types; t++) {
		*nr_free += z->free_mt[t][o];
		*capped |= z->capped[t][o];
	}
	return true;
}

static void print_zone(const struct frag_info *fi, const struct frag_zone *z,
		       bool tsv, unsigned long *ncapped)
{
	unsigned long nr_free[FRAG_MAX_ORDERS];
	bool capped[FRAG_MAX_ORDERS];
	int o, t;

	for (o = 0; o < z->nr_orders; o++)
		zone_counts(fi, z, &nr_free[o], o, &capped[o]);
	for (o = 0; o < z->nr_orders; o++) {
		struct contig_page_info info;
		char u[16], f[16];
		bool any_cap = capped[o];

		fill_contig_page_info(nr_free, z->nr_orders, (unsigned int)o,
				      &info);
		format_index(u, unusable_free_index((unsigned int)o, &info));
		format_index(f, __fragmentation_index((unsigned int)o,
						      z->nr_orders, &info));
		if (tsv)
			printf("%d\t%s\t%d\t%lu\t%lu\t%s\t%s", z->node, z->name,
			       o, nr_free[o], nr_free[o] << o, u, f);
		else
			printf("%4d %-8s %5d %11lu %11lu %14s %19s", z->node,
			       z->name, o, nr_free[o], nr_free[o] << o, u, f);
		for (t = 0; t < fi->nr_types; t++) {
			bool c = z->have_pagetypeinfo && z->capped[t][o];

			any_cap |= c;
			*ncapped += c;
			if (!z->have_pagetypeinfo)
				printf(tsv ? "\t" : " %11s", tsv ? "" : "-");
			else if (tsv)
				printf("\t%s%lu", c ? ">" : "",
				       z->free_mt[t][o]);
			else {
				char cell[32];

				snprintf(cell, sizeof(cell), "%s%lu",
					 c ? ">" : "", z->free_mt[t][o]);
				printf(" %11s", cell);
			}
		}
		if (tsv)
			printf("\t%d\n", any_cap);
		else
			printf("%s\n", any_cap ? "  (capped)" : "");
	}
}

static void print_header(const struct frag_info *fi, bool tsv)
{
	int t;

	if (tsv) {
		printf("node\tzone\torder\tfree_blocks\tfree_pages\tunusable_"
		       "index\tfragmentation_index");
		for (t = 0; t < fi->nr_types; t++)
			printf("\tfree_%s", fi->types[t]);
		printf("\tcapped\n");
		return;
	}
	printf("%4s %-8s %5s %11s %11s %14s %19s", "node", "zone", "order",
	       "free_blocks", "free_pages", "unusable_index",
	       "fragmentation_index");
	for (t = 0; t < fi->nr_types; t++)
		printf(" %11s", fi->types[t]);
	printf("\n");
}

static void print_blocks(const struct frag_info *fi)
{
	int i, t;

	for (i = 0; i < fi->nr_zones; i++) {
		const struct frag_zone *z = &fi->zones[i];

		if (z->have_blocks) {
			printf("node %d zone %s pageblocks:", z->node, z->name);
			for (t = 0; t < fi->nr_types; t++)
				printf(" %s %lu", fi->types[t], z->blocks[t]);
			printf("\n");
		}
		if (z->have_mixed) {
			printf("node %d zone %s mixed pageblocks:", z->node,
			       z->name);
			for (t = 0; t < fi->nr_types; t++)
				printf(" %s %lu", fi->types[t], z->mixed[t]);
			printf("\n");
		}
	}
}

int cmd_fragstat(int argc, char **argv)
{
	static const struct option opts[] = {
		{"buddyinfo", required_argument, NULL, 'b'},
		{"pagetypeinfo", required_argument, NULL, 'p'},
		{"page-owner", required_argument, NULL, 'o'},
		{"tsv", no_argument, NULL, 't'},
		{NULL, 0, NULL, 0},
	};
	const char *buddy = NULL, *pti = NULL, *owner = NULL;
	struct page_owner_stats pos;
	struct frag_info *fi;
	unsigned long ncapped = 0;
	bool tsv = false, defaults;
	int c, i, rc;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (c) {
		case 'b':
			buddy = optarg;
			break;
		case 'p':
			pti = optarg;
			break;
		case 'o':
			owner = optarg;
			break;
		case 't':
			tsv = true;
			break;
		default:
			return bad_option("fragstat", argv);
		}
	}
	if (optind < argc)
		return usage_error("fragstat", "unexpected argument '%s'",
				   argv[optind]);
	defaults = !buddy && !pti && !owner;
	fi = xmalloc(sizeof(*fi));
	frag_info_init(fi);
	if (defaults) {
		buddy = "/proc/buddyinfo";
		pti = "/proc/pagetypeinfo";
	}
	rc = EXIT_USAGE;
	if (buddy && load(buddy, false, parse_buddyinfo, fi) < 0)
		goto out;
	if (pti) {
		int r = load(pti, defaults, parse_pagetypeinfo, fi);

		if (r < 0)
			goto out;
		if (r == 1)
			fprintf(stderr,
				"gfpaudit fragstat: note: %s is not readable "
				"(root-only on recent kernels): no "
				"per-migratetype counts\n",
				pti);
	}
	if (owner && load_page_owner(owner, &pos) < 0)
		goto out;
	if (fi->nr_zones) {
		if (!tsv && fi->pb_order >= 0)
			printf("pageblock order %d (%lu pages per block)\n",
			       fi->pb_order, fi->pages_per_block);
		print_header(fi, tsv);
		for (i = 0; i < fi->nr_zones; i++)
			print_zone(fi, &fi->zones[i], tsv, &ncapped);
		if (!tsv)
			print_blocks(fi);
	}
	if (ncapped)
		fprintf(stderr,
			"gfpaudit fragstat: note: %lu free counts are capped "
			"at %d (the kernel stops counting a list there; shown "
			"as >%d): they and their sums are lower bounds\n",
			ncapped, PAGETYPEINFO_CAP, PAGETYPEINFO_CAP);
	if (owner) {
		FILE *out = tsv && fi->nr_zones ? stderr : stdout;

		fprintf(out, "page_owner: %lu records, %lu mixed pageblocks",
			pos.records, pos.mixed_blocks);
		for (i = 0; i < pos.nr_types; i++)
			if (pos.mixed_by_type[i])
				fprintf(out, " %s %lu", pos.types[i],
					pos.mixed_by_type[i]);
		fprintf(out, "\n");
	}
	rc = EXIT_OK;
out:
	free(fi);
	return rc;
}
