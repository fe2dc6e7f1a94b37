// SPDX-License-Identifier: GPL-2.0
/*
 * gfpaudit report: the findings database as Markdown, HTML, SARIF or
 * gcc-style lines.  The database is opened read-only.  The report is
 * built in memory and written in one go: to stdout, or with -o to a
 * temporary file next to the target that is then renamed over it, so a
 * failed run never leaves half a report and never writes through a
 * symlink planted at the target.
 */
#include "cli/cli.h"
#include "db/db.h"
#include "lib/util.h"
#include "reports/baseline.h"
#include "reports/report.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char usage_report[] =
	"usage: gfpaudit report [--db FILE] [--format md|html|sarif|gcc]\n"
	"                       [-o FILE] [--maintainers FILE] [--top N]\n"
	"                       [--baseline OLD.db] [--fail-on LEVEL]\n"
	"\n"
	"Write a report of the findings database (default ./gfpaudit.db).\n"
	"\n"
	"  --db FILE           the database (opened read-only)\n"
	"  --format FMT        md (default): Markdown; html: one self-contained\n"
	"                      page with SVG charts; sarif: SARIF 2.1.0 for\n"
	"                      code scanning; gcc: path:line:col: warning: ...\n"
	"  -o, --output FILE   write to FILE instead of stdout\n"
	"  --maintainers FILE  MAINTAINERS to group by subsystem (default:\n"
	"                      the scanned tree's own)\n"
	"  --top N             subsystems in the HTML bar chart (default 20)\n"
	"  --baseline OLD.db   match the findings with OLD.db's by a\n"
	"                      line-independent fingerprint: each is new,\n"
	"                      unchanged, updated or absent (SARIF\n"
	"                      baselineState; md and gcc list new ones\n"
	"                      first; the counts go to stderr)\n"
	"  --fail-on LEVEL     note, warning or error: exit 1 when a new\n"
	"                      finding (any finding, without --baseline) is\n"
	"                      at LEVEL or above\n";

enum fmt { FMT_MD, FMT_HTML, FMT_SARIF, FMT_GCC };

static int parse_format(const char *s, enum fmt *f)
{
	static const char *const names[] = { "md", "html", "sarif", "gcc" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i])) {
			*f = (enum fmt)i;
			return 0;
		}
	return -1;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Same file as the database (or its WAL)?  Then refuse to replace it. */
static int is_database(const struct stat *st, const char *db)
{
	const char *suffix[] = { "", "-wal", "-shm" };
	struct stat ds;
	size_t i;

	for (i = 0; i < 3; i++) {
		char *p = xasprintf("%s%s", db, suffix[i]);
		int same = stat(p, &ds) == 0 && ds.st_dev == st->st_dev &&
			   ds.st_ino == st->st_ino;

		free(p);
		if (same)
			return 1;
	}
	return 0;
}

/* Write to a temporary file beside PATH, then rename it over PATH. */
static int replace_file(const char *path, const struct strbuf *sb)
{
	char *copy = xstrdup(path), *tmp;
	mode_t mask = umask(0);
	int fd, err;

	umask(mask);
	tmp = xasprintf("%s/.%s.XXXXXX", dirname(copy), "gfpaudit-report");
	free(copy);
	fd = mkstemp(tmp);
	if (fd < 0) {
		error_msg("report: cannot create %s: %s", path,
			  strerror(errno));
		free(tmp);
		return EXIT_USAGE;
	}
	err = fchmod(fd, 0666 & ~mask) || write_all(fd, sb->buf, sb->len);
	err = close(fd) || err;
	if (err || rename(tmp, path)) {
		error_msg("report: cannot write %s: %s", path,
			  strerror(errno));
		unlink(tmp);
		free(tmp);
		return EXIT_INTERNAL;
	}
	free(tmp);
	return EXIT_OK;
}

static int write_output(const char *path, const char *db,
			const struct strbuf *sb)
{
	struct stat st;
	int fd, err;

	if (!path || !strcmp(path, "-")) {
		if (fwrite(sb->buf, 1, sb->len, stdout) != sb->len ||
		    fflush(stdout)) {
			error_msg("report: write error on stdout: %s",
				  strerror(errno));
			return EXIT_INTERNAL;
		}
		return EXIT_OK;
	}
	if (stat(path, &st) != 0)
		return replace_file(path, sb);
	if (S_ISDIR(st.st_mode)) {
		error_msg("report: %s: is a directory", path);
		return EXIT_USAGE;
	}
	if (is_database(&st, db)) {
		error_msg("report: %s: is the database itself; not "
			  "overwriting it", path);
		return EXIT_USAGE;
	}
	if (S_ISREG(st.st_mode))
		return replace_file(path, sb);
	/* A device or FIFO (/dev/stdout, a pipe): write into it. */
	fd = open(path, O_WRONLY | O_NOCTTY);
	if (fd < 0) {
		error_msg("report: cannot open %s: %s", path, strerror(errno));
		return EXIT_USAGE;
	}
	err = write_all(fd, sb->buf, sb->len);
	err = close(fd) || err;
	if (err) {
		error_msg("report: cannot write %s: %s", path,
			  strerror(errno));
		return EXIT_INTERNAL;
	}
	return EXIT_OK;
}

static const char *argv_level(int rank)
{
	return rank == 1 ? "note" : rank == 2 ? "warning" : "error";
}

static int render(sqlite3 *db, enum fmt f, const struct report_opts *o,
		  struct strbuf *out)
{
	struct report r;
	int rc = 0;

	if (f == FMT_SARIF)
		return report_sarif(db, out);
	if (f == FMT_GCC)
		return o->baseline ? report_gcc_baseline(db, out) :
				     report_gcc(db, NULL, out, NULL);
	if (report_load(db, o, &r))
		rc = -1;
	else if (f == FMT_MD)
		report_md(&r, out);
	else
		report_html(&r, out);
	report_free(&r);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "maintainers", required_argument, NULL, 'm' },
		{ "top", required_argument, NULL, 't' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "fail-on", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct report_opts o = { .top_subsystems = 20 };
	const char *dbpath = "gfpaudit.db", *out = NULL, *base = NULL;
	struct strbuf sb = STRBUF_INIT, counts = STRBUF_INIT;
	struct baseline_counts bc;
	long long failing = 0;
	int fail_on = 0;
	enum fmt f = FMT_MD;
	sqlite3 *db;
	char *end;
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'd': dbpath = optarg; break;
		case 'o': out = optarg; break;
		case 'm': o.maintainers = optarg; break;
		case 'f':
			if (parse_format(optarg, &f))
				return usage_error("report",
						   "unknown format '%s' (md, "
						   "html, sarif or gcc)",
						   optarg);
			break;
		case 't':
			o.top_subsystems = (int)strtol(optarg, &end, 10);
			if (*end || o.top_subsystems < 1 ||
			    o.top_subsystems > 1000)
				return usage_error("report",
						   "--top wants 1..1000, not "
						   "'%s'", optarg);
			break;
		case 'b': base = optarg; break;
		case 'F':
			fail_on = severity_rank(optarg);
			if (!fail_on)
				return usage_error("report",
						   "--fail-on wants note, "
						   "warning or error, not '%s'",
						   optarg);
			break;
		case 'h': fputs(usage_report, stdout); return EXIT_OK;
		default: return bad_option("report", argv);
		}
	}
	if (optind < argc)
		return usage_error("report", "unexpected argument '%s'",
				   argv[optind]);
	db = db_open(dbpath, DB_READONLY);
	if (!db)
		return EXIT_USAGE;
	if (baseline_load(db, base, &bc)) {
		db_close(db);
		return EXIT_USAGE;
	}
	if (base) {
		sb_addf(&counts, "%lld new, %lld unchanged, %lld updated, "
			"%lld absent", bc.new_, bc.unchanged, bc.updated,
			bc.absent);
		o.baseline = counts.buf;
	}
	rc = render(db, f, &o, &sb) ? EXIT_INTERNAL : EXIT_OK;
	if (rc == EXIT_OK && fail_on)
		failing = baseline_failing(db, fail_on, base != NULL);
	if (failing < 0)
		rc = EXIT_INTERNAL;
	db_close(db);
	if (rc == EXIT_OK)
		rc = write_output(out, dbpath, &sb);
	if (rc == EXIT_OK && base)
		fprintf(stderr, "%s report: against %s: %s\n", progname, base,
			counts.buf);
	if (rc == EXIT_OK && failing > 0) {
		fprintf(stderr, "%s report: %lld %sfinding%s at %s or above\n",
			progname, failing, base ? "new " : "",
			failing == 1 ? "" : "s", argv_level(fail_on));
		rc = EXIT_FINDINGS;
	}
	sb_release(&counts);
	sb_release(&sb);
	return rc;
}
