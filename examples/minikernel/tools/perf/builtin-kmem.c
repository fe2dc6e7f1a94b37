// SPDX-License-Identifier: GPL-2.0
/* perf kmem: short names for the gfp flags it prints. */
static const struct {
	const char *original;
	const char *compact;
} gfp_compact_table[] = {
	{ "GFP_TRANSHUGE",		"THP" },
	{ "GFP_HIGHUSER_MOVABLE",	"HUM" },
	{ "GFP_TEMPORARY",		"TMP" },
	{ "GFP_KERNEL",			"K" },
	{ "__GFP_RECLAIMABLE",		"RC" },
};
