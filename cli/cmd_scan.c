// SPDX-License-Identifier: GPL-2.0
/*
 * gfpaudit scan: find every tracked flag use and allocation call in a
 * kernel tree and record them in the findings database (analyzer/).
 */
#include "analyzer/analyzer.h"
#include "cli/cli.h"
#include "cli/rules_after.h"
#include "db/db.h"
#include "lib/util.h"
#include "rules/rule.h"

#include <getopt.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char usage_scan[] =
	"usage: gfpaudit scan [--db FILE] [-j N] [--compile-commands FILE]\n"
	"                     [--arch ARCH] [--shard K/N]\n"
	"                     [--depth lexical|single|full] [--force]\n"
	"                     [--rule NAME] [--rules DIR]\n"
	"                     [--run-rules LIST|--no-rules]\n"
	"                     [--enable|--disable NAME[,NAME]]\n"
	"                     [--progress|--no-progress] TREE [PATH...]\n"
	"\n"
	"Scan the kernel tree TREE with libclang: every tracked flag token\n"
	"(data/tracked-flags.txt) into flag_uses, every allocation call\n"
	"(data/allocators.txt and learned wrappers) into sites, with the\n"
	"flags evaluated against TREE's own gfp headers.  Re-scans re-parse\n"
	"only files whose content changed.  PATHs (files or directories\n"
	"relative to TREE) restrict the scan to part of the tree.\n"
	"\n"
	"  --db FILE               database (default ./gfpaudit.db)\n"
	"  -j, --jobs N            parallel workers (default: online cores)\n"
	"  --compile-commands FILE use this compile_commands.json (full depth)\n"
	"  --arch ARCH             kernel arch for headers (default: host)\n"
	"  --shard K/N             scan only the K-th of N shards of the files\n"
	"  --depth D               lexical: tokens only; single (default):\n"
	"                          single-file AST of bodies; full: the whole\n"
	"                          translation unit of each .c (types)\n"
	"  --force                 re-parse unchanged files too, and solve\n"
	"                          the whole-tree summaries again (done\n"
	"                          anyway when another build of gfpaudit\n"
	"                          or other data tables wrote the database)\n"
	"  --rule NAME             only what replace rule NAME edits: the\n"
	"                          files that name one of its flags (and\n"
	"                          files the database already holds); the\n"
	"                          rest of the tree gets no rows\n"
	"  --rules DIR             rule directory (for --rule and the rules)\n"
	"  --run-rules LIST        when the scan is done, evaluate only these\n"
	"                          rules (comma-separated; default: every rule\n"
	"                          that applies to TREE's kernel version), so\n"
	"                          that the findings table is current\n"
	"  --no-rules              do not evaluate the rules\n"
	"  --disable NAME[,NAME]   do not run these classifiers (their\n"
	"                          columns stay NULL; re-parses every file)\n"
	"  --enable NAME[,NAME]    run only these classifiers\n"
	"  --list-classifiers      the classifiers, in the order they run\n"
	"  --progress              progress bar on stderr (default: if a tty)\n";

enum { OPT_DB = 256, OPT_CC, OPT_ARCH, OPT_SHARD, OPT_DEPTH, OPT_FORCE,
       OPT_PROGRESS, OPT_NO_PROGRESS, OPT_RULE, OPT_RULES, OPT_RUN_RULES,
       OPT_NO_RULES, OPT_ENABLE, OPT_DISABLE, OPT_LIST_CLASSIFIERS,
       OPT_HELP };

static const struct option longopts[] = {
	{ "db", required_argument, NULL, OPT_DB },
	{ "jobs", required_argument, NULL, 'j' },
	{ "compile-commands", required_argument, NULL, OPT_CC },
	{ "arch", required_argument, NULL, OPT_ARCH },
	{ "shard", required_argument, NULL, OPT_SHARD },
	{ "depth", required_argument, NULL, OPT_DEPTH },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "progress", no_argument, NULL, OPT_PROGRESS },
	{ "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
	{ "rule", required_argument, NULL, OPT_RULE },
	{ "rules", required_argument, NULL, OPT_RULES },
	{ "run-rules", required_argument, NULL, OPT_RUN_RULES },
	{ "no-rules", no_argument, NULL, OPT_NO_RULES },
	{ "enable", required_argument, NULL, OPT_ENABLE },
	{ "disable", required_argument, NULL, OPT_DISABLE },
	{ "list-classifiers", no_argument, NULL, OPT_LIST_CLASSIFIERS },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

/* "a, b, c": the names --enable and --disable take */
static const char *classifier_list(void)
{
	static char buf[256];
	size_t len = 0;
	int i;

	for (i = 0; classifier_name(i) && len < sizeof(buf); i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
					i ? ", " : "", classifier_name(i));
	return buf;
}

static int parse_depth(const char *s, enum parse_depth *d)
{
	if (!strcmp(s, "lexical"))
		*d = DEPTH_LEXICAL;
	else if (!strcmp(s, "single"))
		*d = DEPTH_SINGLE_FILE;
	else if (!strcmp(s, "full"))
		*d = DEPTH_FULL;
	else
		return -1;
	return 0;
}

static const char *depth_name(enum parse_depth d)
{
	return d == DEPTH_LEXICAL ? "lexical" :
	       d == DEPTH_SINGLE_FILE ? "single" : "full";
}

/* The PATH arguments as a JSON array (json_array), "[]" for none. */
static char *paths_json(sqlite3 *mem, const struct scan_opts *o)
{
	static char *out;
	sqlite3_stmt *st;
	int i;

	free(out);
	out = xstrdup("[]");
	for (i = 0; i < o->npaths; i++) {
		if (sqlite3_prepare_v2(mem, "SELECT json_insert(?, '$[#]', ?)",
				       -1, &st, NULL) != SQLITE_OK)
			break;
		sqlite3_bind_text(st, 1, out, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 2, o->paths[i], -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW) {
			free(out);
			out = xstrdup((const char *)sqlite3_column_text(st, 0));
		}
		sqlite3_finalize(st);
	}
	return out;
}

/* runs.options as a JSON object, built by SQLite's json_object(). */
static char *options_json(const struct scan_opts *o, const char *rule,
			  const char *enable, const char *disable)
{
	sqlite3 *mem;
	sqlite3_stmt *st;
	char *out = NULL;

	if (sqlite3_open(":memory:", &mem) != SQLITE_OK)
		return NULL;
	if (sqlite3_prepare_v2(mem,
			       "SELECT json_object('db', ?, 'jobs', ?, "
			       "'compile_commands', ?, 'arch', ?, 'shard', ?, "
			       "'depth', ?, 'force', json(?), 'paths', json(?), "
			       "'rule', ?, 'enable', ?, 'disable', ?)",
			       -1, &st, NULL) == SQLITE_OK) {
		char shard[32];

		snprintf(shard, sizeof(shard), "%d/%d", o->shard_k, o->shard_n);
		sqlite3_bind_text(st, 1, o->db_path, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 2, o->jobs);
		if (o->compile_commands)
			sqlite3_bind_text(st, 3, o->compile_commands, -1,
					  SQLITE_STATIC);
		if (o->arch)
			sqlite3_bind_text(st, 4, o->arch, -1, SQLITE_STATIC);
		if (o->shard_n)
			sqlite3_bind_text(st, 5, shard, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 6, depth_name(o->depth), -1,
				  SQLITE_STATIC);
		sqlite3_bind_text(st, 7, o->force ? "true" : "false", -1,
				  SQLITE_STATIC);
		sqlite3_bind_text(st, 8, paths_json(mem, o), -1, SQLITE_TRANSIENT);
		if (rule)
			sqlite3_bind_text(st, 9, rule, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 10, enable, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 11, disable, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW)
			out = xstrdup((const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	sqlite3_close(mem);
	return out;
}

/*
 * The names a scan for replace rule NAME needs: every use of a replaced
 * flag names it (its #define and flag-name tables included), so the
 * files that name none have nothing the rule's series could edit.  Other
 * actions select sites whose flags may come from a macro defined
 * elsewhere: they need the whole tree.
 */
static int scope_of_rule(const char *name, const char *rdir,
			 struct scan_opts *o)
{
	struct rule *rules, *r;
	char *dir = rdir ? xstrdup(rdir) : rule_default_dir();
	int n, i, rc = 0;

	rules_load_dir(dir, &rules, &n); /* a bad rule file is named */
	r = rules_find(rules, n, name);
	if (!r) {
		rc = usage_error("scan", "no rule '%s' in %s", name, dir);
	} else if (r->action != RULE_REPLACE || !r->nsubst) {
		rc = usage_error("scan", "--rule %s: only a replace rule "
				 "scopes a scan (the others need the whole "
				 "tree)", name);
	} else {
		o->scope = xcalloc((size_t)r->nsubst, sizeof(*o->scope));
		for (i = 0; i < r->nsubst; i++)
			o->scope[o->nscope++] = xstrdup(r->subst[i].from);
	}
	rules_free(rules, n);
	free(dir);
	return rc ? -1 : 0;
}

/*
 * A re-scan: did the whole-tree summaries have to be solved again, and
 * how far did the re-analysed files' changes reach?
 */
static void print_propagation(const char *how)
{
	size_t solved, fresh, changed;

	if (!how)
		return;
	if (!strcmp(how, "kept"))
		fprintf(stderr, "gfpaudit scan: summaries kept: nothing they "
				"are solved from changed\n");
	else if (sscanf(how, "%zu %zu %zu", &solved, &fresh, &changed) == 3)
		fprintf(stderr,
			"gfpaudit scan: summaries solved again for %zu "
			"functions: %zu of the re-analysed files, %zu more "
			"whose answer changed\n",
			solved, fresh, changed);
}

/* The command's summary: what was analysed, and what the database holds. */
static void print_summary(const struct scan_opts *o,
			  const struct scan_stats *st)
{
	fprintf(stderr,
		"gfpaudit scan: %s (%s): %zu files, %zu parsed (%zu by libclang), "
		"%zu unchanged, %zu failed, %zu re-analysed for learned "
		"allocators (%.1fs) in %.1fs; %s has %lld flag uses, "
		"%lld sites\n",
		st->tree, st->kv.text, st->total, st->parsed, st->clang,
		st->unchanged, st->failed, st->reanalysed, st->t_learn,
		st->t_total, o->db_path, st->flag_uses, st->sites);
	print_propagation(st->summaries);
	if (o->nscope)
		fprintf(stderr,
			"gfpaudit scan: scoped to %d name%s: %zu files "
			"that name none were not analysed, but for %zu "
			"read for the wrappers the others call (%zu "
			"names)\n",
			o->nscope, o->nscope == 1 ? "" : "s", st->out_of_scope,
			st->defining, st->callees);
}

int cmd_scan(int argc, char **argv)
{
	struct scan_opts o = { 0 };
	struct rules_after ra = { 0 };
	struct scan_stats st;
	const char *rule = NULL, *rdir = NULL, *enable = NULL, *disable = NULL;
	int c, rc;
	char *end;

	o.db_path = "gfpaudit.db";
	o.depth = DEPTH_SINGLE_FILE;
	o.progress = -1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "j:h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_DB:
			o.db_path = optarg;
			break;
		case 'j':
			o.jobs = (int)strtol(optarg, &end, 10);
			if (*end || o.jobs < 1 || o.jobs > 1024)
				return usage_error("scan", "-j wants a number "
						   "of jobs, not '%s'", optarg);
			break;
		case OPT_CC:
			o.compile_commands = optarg;
			break;
		case OPT_ARCH:
			o.arch = optarg;
			if (arch_error("scan", optarg, 0))
				return EXIT_USAGE;
			break;
		case OPT_SHARD:
			if (sscanf(optarg, "%d/%d", &o.shard_k, &o.shard_n) != 2 ||
			    o.shard_n < 1 || o.shard_k < 1 ||
			    o.shard_k > o.shard_n)
				return usage_error("scan", "--shard wants K/N "
						   "with 1 <= K <= N, not '%s'",
						   optarg);
			break;
		case OPT_DEPTH:
			if (parse_depth(optarg, &o.depth))
				return usage_error("scan", "--depth is lexical, "
						   "single or full, not '%s'",
						   optarg);
			break;
		case OPT_FORCE:
			o.force = 1;
			break;
		case OPT_RULE:
			rule = optarg;
			break;
		case OPT_RULES:
			rdir = optarg;
			break;
		case OPT_RUN_RULES:
			rules_after_add(&ra, optarg);
			break;
		case OPT_NO_RULES:
			ra.off = 1;
			break;
		case OPT_ENABLE:
			enable = optarg;
			break;
		case OPT_DISABLE:
			disable = optarg;
			break;
		case OPT_LIST_CLASSIFIERS:
			for (c = 0; classifier_name(c); c++)
				puts(classifier_name(c));
			return EXIT_OK;
		case OPT_PROGRESS:
			o.progress = 1;
			break;
		case OPT_NO_PROGRESS:
			o.progress = 0;
			break;
		case 'h':
		case OPT_HELP:
			fputs(usage_scan, stdout);
			return EXIT_OK;
		default:
			return bad_option("scan", argv);
		}
	}
	if (optind >= argc) {
		rules_after_free(&ra);
		return usage_error("scan", "expected a TREE argument");
	}
	o.tree = argv[optind];
	o.paths = argv + optind + 1;
	o.npaths = argc - optind - 1;
	ra.dir = rdir;
	if ((rule && scope_of_rule(rule, rdir, &o)) ||
	    rules_after_check("scan", &ra)) {
		rules_after_free(&ra);
		return EXIT_USAGE;
	}
	if (enable || disable) {
		const char *bad = classifiers_select(enable, disable);

		if (bad) {
			rules_after_free(&ra);
			return usage_error("scan", "no classifier '%s' (%s)", bad,
					   classifier_list());
		}
		/* every file's rows from the same classifiers */
		o.force = 1;
	}
	o.options_json = options_json(&o, rule, enable, disable);
	rc = analyzer_exit(analyzer_scan(&o, &st));
	if (st.have_summary)
		print_summary(&o, &st);
	scan_stats_free(&st);
	if (rc == EXIT_OK)
		rc = rules_after_run("scan", o.db_path, &ra);
	rules_after_free(&ra);
	free(o.options_json);
	while (o.nscope)
		free(o.scope[--o.nscope]);
	free(o.scope);
	return rc;
}
