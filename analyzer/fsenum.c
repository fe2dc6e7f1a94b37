// SPDX-License-Identifier: GPL-2.0
/* File enumeration for the scan. */
#include "analyzer/fsenum.h"
#include "lib/util.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>

static void add(struct file_list *l, const char *p)
{
	if (l->n == l->alloc) {
		l->alloc = l->alloc ? l->alloc * 2 : 1024;
		l->paths = xrealloc(l->paths, l->alloc * sizeof(char *));
	}
	l->paths[l->n++] = xstrdup(p);
}

static int wanted(const char *name)
{
	return str_has_suffix(name, ".c") || str_has_suffix(name, ".h");
}

static void walk(const char *tree, struct strbuf *rel, struct file_list *l)
{
	char *abs = xasprintf("%s/%s", tree, rel->buf ? rel->buf : "");
	DIR *d = opendir(abs);
	struct dirent *e;
	size_t base = rel->len;

	if (!d) {
		warn_msg("%s: cannot read directory: %s", abs, strerror(errno));
		l->warnings++;
		free(abs);
		return;
	}
	while ((e = readdir(d))) {
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    !strcmp(e->d_name, ".git"))
			continue;
		if (base)
			sb_addc(rel, '/');
		sb_adds(rel, e->d_name);
		/*
		 * The entry's type from readdir where the file system gives
		 * it (no stat of the 55k files of a tree, most of which are
		 * not wanted), else from lstat relative to the directory.
		 */
		st.st_mode = e->d_type == DT_DIR ? S_IFDIR :
			     e->d_type == DT_REG ? S_IFREG : 0;
		if (st.st_mode || fstatat(dirfd(d), e->d_name, &st,
					  AT_SYMLINK_NOFOLLOW) == 0) {
			if (S_ISDIR(st.st_mode)) {
				walk(tree, rel, l);
			} else if (S_ISREG(st.st_mode)) {
				if (wanted(e->d_name))
					add(l, rel->buf);
			} else if (S_ISLNK(st.st_mode) &&
				   fstatat(dirfd(d), e->d_name, &st, 0) != 0 &&
				   errno == ELOOP) {
				warn_msg("%s: symlink loop, skipped", rel->buf);
				l->warnings++;
			}
		}
		rel->len = base;
		if (rel->buf)
			rel->buf[base] = '\0';
	}
	closedir(d);
	free(abs);
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int fsenum_tree(const char *tree, struct file_list *out)
{
	struct strbuf rel = STRBUF_INIT;

	memset(out, 0, sizeof(*out));
	sb_adds(&rel, "");
	walk(tree, &rel, out);
	sb_release(&rel);
	if (out->n)
		qsort(out->paths, out->n, sizeof(char *), cmp);
	return 0;
}

void file_list_free(struct file_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->paths[i]);
	free(l->paths);
	memset(l, 0, sizeof(*l));
}
