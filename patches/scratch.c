// SPDX-License-Identifier: GPL-2.0
/*
 * The scratch git repository used by `patch` and `validate`.  git is run
 * with a fixed identity and without the user's or the system's config, so
 * a user's format.signature, hooks or commit templates cannot change what
 * the series contains.
 */
#define _XOPEN_SOURCE 700
#include "patches/scratch.h"
#include "lib/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

int mkdir_p(const char *dir)
{
	char *p = xstrdup(dir), *s;

	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0777) && errno != EEXIST) {
			free(p);
			return -1;
		}
		*s = '/';
	}
	if (mkdir(p, 0777) && errno != EEXIST) {
		free(p);
		return -1;
	}
	free(p);
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int type,
		  struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

int remove_tree(const char *dir)
{
	return nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static const char *const clear_env[] = {
	"GIT_DIR=",    "GIT_WORK_TREE=", "GIT_INDEX_FILE=",
	"GIT_AUTHOR_", "GIT_COMMITTER_", "GIT_CONFIG",
	NULL};

int scratch_init(struct scratch *s, const char *parent, const char *name,
		 const char *email)
{
	static const char *const init[] = {"init", "-q", NULL};
	char *tmpl = xasprintf("%s/.gfpaudit-work.XXXXXX", parent);
	int n = 0, i, k;

	memset(s, 0, sizeof(*s));
	if (!mkdtemp(tmpl)) {
		error_msg("%s: %s", tmpl, strerror(errno));
		free(tmpl);
		return -1;
	}
	s->dir = tmpl;
	for (i = 0; environ[i]; i++)
		;
	s->envp = xcalloc((size_t)i + 16, sizeof(char *));
	for (i = 0; environ[i]; i++) {
		int drop = 0;

		for (k = 0; clear_env[k]; k++)
			drop |= str_has_prefix(environ[i], clear_env[k]);
		if (!drop)
			s->envp[n++] = xstrdup(environ[i]);
	}
	s->envp[n++] = xasprintf("GIT_AUTHOR_NAME=%s", name);
	s->envp[n++] = xasprintf("GIT_AUTHOR_EMAIL=%s", email);
	s->envp[n++] = xasprintf("GIT_COMMITTER_NAME=%s", name);
	s->envp[n++] = xasprintf("GIT_COMMITTER_EMAIL=%s", email);
	s->envp[n++] = xstrdup("GIT_CONFIG_NOSYSTEM=1");
	s->envp[n++] = xstrdup("GIT_CONFIG_GLOBAL=/dev/null");
	/*
	 * The repository lives for one command: objects stored, not
	 * compressed (zlib was a third of a 291-patch series' time), and no
	 * automatic gc or maintenance after a commit.
	 */
	s->envp[n++] = xstrdup("GIT_CONFIG_COUNT=3");
	s->envp[n++] = xstrdup("GIT_CONFIG_KEY_0=core.compression");
	s->envp[n++] = xstrdup("GIT_CONFIG_VALUE_0=0");
	s->envp[n++] = xstrdup("GIT_CONFIG_KEY_1=gc.auto");
	s->envp[n++] = xstrdup("GIT_CONFIG_VALUE_1=0");
	s->envp[n++] = xstrdup("GIT_CONFIG_KEY_2=maintenance.auto");
	s->envp[n++] = xstrdup("GIT_CONFIG_VALUE_2=false");
	s->envp[n] = NULL;
	return scratch_git(s, NULL, NULL, init) ? -1 : 0;
}

static int run_git(struct scratch *s, struct strbuf *out, struct strbuf *err,
		   const char *in, size_t in_len, const char *const *args)
{
	const char *argv[64];
	struct strbuf e = STRBUF_INIT;
	struct spawn_opts o = {.cwd = s->dir,
			       .out = out,
			       .err = err ? err : &e,
			       .stdin_data = in,
			       .stdin_len = in_len,
			       .envp = s->envp};
	int n = 0, rc;

	argv[n++] = "git";
	while (*args && n < 62)
		argv[n++] = *args++;
	argv[n] = NULL;
	if (!out)
		o.quiet = 1;
	rc = run_argv((char *const *)argv, &o);
	if (rc && !err)
		error_msg("git %s: %s", argv[1], e.len ? e.buf : "failed");
	sb_release(&e);
	return rc;
}

int scratch_git(struct scratch *s, struct strbuf *out, struct strbuf *err,
		const char *const *args)
{
	return run_git(s, out, err, NULL, 0, args);
}

int scratch_git_input(struct scratch *s, const char *in, size_t len,
		      const char *const *args)
{
	return run_git(s, NULL, NULL, in, len, args);
}

int scratch_write(struct scratch *s, const char *path, const char *data,
		  size_t len)
{
	char *full = xasprintf("%s/%s", s->dir, path);
	char *slash = strrchr(full, '/');
	struct stat st;
	int fd, mode = 0644, rc = 0;

	if (stat(full, &st) == 0)
		mode = st.st_mode & 0777;
	*slash = '\0';
	if (mkdir_p(full)) {
		error_msg("%s: %s", full, strerror(errno));
		free(full);
		return -1;
	}
	*slash = '/';
	fd = open(full, O_WRONLY | O_CREAT | O_TRUNC, mode);
	if (fd < 0 || write(fd, data, len) != (ssize_t)len) {
		error_msg("%s: %s", full, strerror(errno));
		rc = -1;
	}
	if (fd >= 0)
		close(fd);
	free(full);
	return rc;
}

int scratch_copy_in(struct scratch *s, const char *tree, const char *path)
{
	char *src = xasprintf("%s/%s", tree, path), *buf, *dst;
	struct stat st;
	size_t len;
	int rc;

	if (!path_is_safe_relative(path) || lstat(src, &st) ||
	    !S_ISREG(st.st_mode)) {
		error_msg("%s: not a regular file in the tree", src);
		free(src);
		return -1;
	}
	if (read_whole_file(src, &buf, &len)) {
		error_msg("%s: %s", src, strerror(errno));
		free(src);
		return -1;
	}
	rc = scratch_write(s, path, buf, len);
	dst = xasprintf("%s/%s", s->dir, path);
	if (!rc)
		chmod(dst, st.st_mode & 0777);
	free(dst);
	free(buf);
	free(src);
	return rc;
}

void scratch_destroy(struct scratch *s, int keep)
{
	int i;

	if (s->dir && !keep)
		remove_tree(s->dir);
	free(s->dir);
	for (i = 0; s->envp && s->envp[i]; i++)
		free(s->envp[i]);
	free(s->envp);
	memset(s, 0, sizeof(*s));
}

static char *git_config(const char *tree, const char *key)
{
	struct strbuf out = STRBUF_INIT;
	char *argv[] = {"git", "-C", (char *)tree, "config", (char *)key, NULL};
	struct spawn_opts o = {.out = &out, .quiet = 1};
	char *v = NULL;

	if (run_argv(argv, &o) == 0 && out.len) {
		out.buf[strcspn(out.buf, "\n")] = '\0';
		if (*out.buf)
			v = xstrdup(out.buf);
	}
	sb_release(&out);
	return v;
}

void scratch_identity(const char *spec, const char *tree, char **name,
		      char **email)
{
	const char *lt = spec ? strchr(spec, '<') : NULL;
	const char *gt = lt ? strchr(lt, '>') : NULL;

	if (lt && gt && lt > spec) {
		size_t n = (size_t)(lt - spec);

		while (n && spec[n - 1] == ' ')
			n--;
		*name = xstrndup(spec, n);
		*email = xstrndup(lt + 1, (size_t)(gt - lt - 1));
		return;
	}
	*name = git_config(tree, "user.name");
	*email = git_config(tree, "user.email");
	if (!*name || !*email) {
		free(*name);
		free(*email);
		*name = xstrdup("gfpaudit");
		*email = xstrdup("gfpaudit@example.org");
	}
}
