// SPDX-License-Identifier: GPL-2.0
/*
 * lexcheck TREE [PATH...]: compare the raw tokens of analyzer/clex.c with
 * clang_tokenize()'s (a single-file parse of each file, as a scan's),
 * token by token: offset, length and kind.  Paths are relative to TREE,
 * one per argument or, without any, one per line on stdin.  Prints each
 * file that differs with its first difference, then "N files, M tokens,
 * K differ"; exits 1 when any differs.
 */
#include "analyzer/tu.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *kind_name(unsigned char k)
{
	static const char *const n[] = { "punct", "keyword", "ident",
					 "literal", "comment" };

	return k < 5 ? n[k] : "?";
}

static void show(const struct lexfile *lf, size_t i)
{
	const struct tok *t;

	if (i >= lf->ntoks) {
		printf("(none)");
		return;
	}
	t = &lf->toks[i];
	printf("%u+%u %s '%.*s'", t->off, t->len, kind_name(t->kind),
	       (int)(t->len > 40 ? 40 : t->len), lf->buf + t->off);
}

/* 1 when PATH's tokens differ, 0 when equal, -1 when it cannot say. */
static int check(struct tu_parser *tp, const char *tree, const char *path,
		 size_t *ntoks)
{
	char *abs = xasprintf("%s/%s", tree, path), *buf = NULL;
	size_t len = 0, i;
	struct lexfile a = { 0 }, b = { 0 };
	struct parse_req rq = { 0 };
	struct parse_res pr;
	int rc = -1;

	if (read_whole_file(abs, &buf, &len)) {
		fprintf(stderr, "lexcheck: %s: cannot read\n", abs);
		goto out;
	}
	rq.tree = tree;
	rq.abspath = abs;
	rq.buf = buf;
	rq.len = len;
	rq.depth = DEPTH_SINGLE_FILE;
	rq.clang_tokens = 1;
	a.path = b.path = path;
	a.buf = b.buf = buf;
	a.len = b.len = len;
	if (tu_parse(tp, &rq, &pr, &a)) {
		fprintf(stderr, "lexcheck: %s: libclang could not parse it\n",
			path);
		goto out;
	}
	tu_dispose(&pr);
	tu_lex_tokens(tp, &b);
	*ntoks += a.ntoks;
	rc = 0;
	for (i = 0; i < a.ntoks || i < b.ntoks; i++) {
		if (i < a.ntoks && i < b.ntoks &&
		    a.toks[i].off == b.toks[i].off &&
		    a.toks[i].len == b.toks[i].len &&
		    a.toks[i].kind == b.toks[i].kind)
			continue;
		printf("%s: token %zu: clang ", path, i);
		show(&a, i);
		printf(", clex ");
		show(&b, i);
		printf("\n");
		rc = 1;
		break;
	}
out:
	free(a.toks);
	free(b.toks);
	free(buf);
	free(abs);
	return rc;
}

int main(int argc, char **argv)
{
	struct tu_parser tp;
	size_t nfiles = 0, ntoks = 0, ndiff = 0;
	char line[4096];
	int i, bad = 0, rc;

	if (argc < 2) {
		fprintf(stderr, "usage: lexcheck TREE [PATH...]\n");
		return 2;
	}
	tu_global_init();
	tu_parser_init(&tp);
	for (i = 2; argc > 2 ? i < argc : fgets(line, sizeof(line), stdin) != NULL;
	     i++) {
		const char *p = argv[i];

		if (argc == 2) {
			line[strcspn(line, "\n")] = 0;
			if (!*line)
				continue;
			p = line;
		}
		rc = check(&tp, argv[1], p, &ntoks);
		nfiles++;
		ndiff += rc == 1;
		bad |= rc != 0;
	}
	tu_parser_free(&tp);
	printf("%zu files, %zu tokens, %zu differ\n", nfiles, ntoks, ndiff);
	return bad;
}
