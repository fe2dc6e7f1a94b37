// SPDX-License-Identifier: GPL-2.0
/*
 The tree's own kbuild for `gfpaudit validate` on a configured tree:
 * `make dir/file.o` (with C=2 for sparse) before and after the series, so
 * the compiler and sparse see each object with its own kbuild flags (-D,
 * -include, the arch's CHECKFLAGS), not the generic ones of the direct
 * calls (vtool.c); and an object's .cmd file tells which headers it was
 * really compiled with.
 *
 * kbuild writes objects and regenerates files next to its sources, and
 * TREE is never written.  So make runs in a farm: a directory of the
 * tree's directories with a symlink for every source file and a real copy
 * of everything kbuild may write: every file made or changed since
 * .config was (what prepare and any build generated), scripts/ and
 * tools/objtool/ with their host programs, the generated headers,
 * kbuild's outputs by name (dotfiles, .o .s .cmd ...) and any file kbuild
 * recorded a .NAME.cmd for.  A file
 * the check puts there is unlinked first, so its write never goes through
 * a symlink.  Only objects the .config builds go through kbuild (the
 * directory's Makefile lists them under obj-y, obj-m, or a set CONFIG_).
 */
#include "patches/vkbuild.h"
#include "lib/karch.h"
#include "lib/spawn.h"
#include "patches/scratch.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define COPY_MAX (16L << 20) /* bigger outputs (vmlinux) stay links */
#define MAX_DEPTH 6

struct vkbuild {
	char *tree;
	char *farm;
	char *config; /* .config text */
	char *arch;   /* ARCH= to pass: the .config's arch, not the host's */
	char *srcarch; /* the .config header's arch ("x86"), or NULL */
	int llvm;     /* configured with clang: LLVM=1 */
	time_t configured_at; /* .config's mtime */
	int state;    /* 0 farm not made, 1 made, -1 failed */
};

static char *config_header_arch(const char *config)
{
	const char *l = strstr(config, "# Linux/");
	size_t n;

	if (!l)
		return NULL;
	l += strlen("# Linux/");
	n = strcspn(l, " \n");
	return n ? xstrndup(l, n) : NULL;
}

struct vkbuild *vkbuild_new(const char *tree, const char *workdir)
{
	char *cfg = xasprintf("%s/.config", tree);
	char *gen = xasprintf("%s/include/generated/autoconf.h", tree);
	struct vkbuild *k = NULL;
	const char *host;
	char real[4096];
	struct stat st;
	size_t len;
	char *text;

	if (stat(gen, &st) == 0 && have_program("make") &&
	    realpath(tree, real) && stat(cfg, &st) == 0 &&
	    read_whole_file(cfg, &text, &len) == 0) {
		k = xcalloc(1, sizeof(*k));
		k->configured_at = st.st_mtime;
		k->tree = xstrdup(real);
		k->farm = xasprintf("%s/.gfpaudit-kbuild", workdir);
		k->config = text;
		k->arch = config_header_arch(text);
		k->srcarch = k->arch ? xstrdup(k->arch) : NULL;
		host = karch_host();
		if (k->arch && host && !strcmp(k->arch, host)) {
			/*
			 * kbuild's default (its SUBARCH, from uname -m);
			 * naming it could re-run Kconfig
			 */
			free(k->arch);
			k->arch = NULL;
		}
		k->llvm = strstr(text, "\nCONFIG_CC_IS_CLANG=y") != NULL;
	}
	free(cfg);
	free(gen);
	return k;
}

void vkbuild_free(struct vkbuild *k)
{
	if (!k)
		return;
	free(k->tree);
	free(k->farm);
	free(k->config);
	free(k->arch);
	free(k->srcarch);
	free(k);
}

static int is_word_char(char c)
{
	return c && !strchr(" \t\n\\=:+", c);
}

/* VAR as kbuild expands it: $(CONFIG_X) becomes y, m or nothing. */
static char *expand_var(const struct vkbuild *k, const char *v, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i = 0;

	while (i < n) {
		const char *e = memchr(v + i, ')', n - i);

		if (!strncmp(v + i, "$(CONFIG_", 9) && e) {
			const char *name = v + i + 9;
			size_t nl = (size_t)(e - name);
			const char *p = k->config;

			while ((p = strstr(p, "\nCONFIG_"))) {
				p += 8;
				if (!strncmp(p, name, nl) && p[nl] == '=') {
					if (p[nl + 1] == 'y' || p[nl + 1] == 'm')
						sb_addc(&sb, p[nl + 1]);
					break;
				}
			}
			i = (size_t)(e - v) + 1;
			continue;
		}
		sb_addc(&sb, v[i++]);
	}
	return sb.buf ? sb_detach(&sb) : xstrdup("");
}

static int listed(struct vkbuild *k, const char *dir, const char *word,
		  int depth);

/*
 * Does the (expanded) variable build its words?  obj-y, obj-m, lib-y;
 * NAME-y, NAME-m, NAME-objs when NAME.o is built itself.
 */
static int var_builds(struct vkbuild *k, const char *dir, const char *var,
		      int depth)
{
	const char *dash = strrchr(var, '-');
	char *name;
	int ok;

	if (!dash || (strcmp(dash, "-y") && strcmp(dash, "-m") &&
		      strcmp(dash, "-objs")))
		return 0;
	if ((dash - var == 3 && !strncmp(var, "obj", 3)) ||
	    (dash - var == 3 && !strncmp(var, "lib", 3)))
		return 1;
	name = xasprintf("%.*s.o", (int)(dash - var), var);
	ok = listed(k, dir, name, depth + 1);
	free(name);
	return ok;
}

#define MAX_HITS 16

/*
 * 1 when DIR's Kbuild or Makefile builds WORD ("base.o", or "proc/" in
 * the parent for the directory itself), reading its assignments in order:
 * `VAR := ...` without WORD takes back what VAR listed before
 * (`proc-$(CONFIG_MMU) := task_mmu.o` after `proc-y := task_nommu.o`).
 * A directory its parent does not mention (arch/x86 from the top
 * Makefile, say) counts as reached.
 */
static int listed(struct vkbuild *k, const char *dir, const char *word,
		  int depth)
{
	static const char *const names[] = {"Kbuild", "Makefile", NULL};
	size_t wl = strlen(word), len;
	char *hits[MAX_HITS], *text = NULL, *p, *var = NULL;
	int i, nhits = 0, mentioned = 0, built = 0, found = 0, reset = 0;

	if (depth > MAX_DEPTH)
		return 0;
	for (i = 0; names[i] && !text; i++) {
		char *f = xasprintf("%s/%s/%s", k->tree, dir, names[i]);

		if (read_whole_file(f, &text, &len))
			text = NULL;
		free(f);
	}
	if (!text)
		return word[wl - 1] == '/';
	/* Logical lines: an assignment and its backslash continuations. */
	for (p = text; *p;) {
		char *nl = strchr(p, '\n'), *q;
		int cont;

		if (!nl)
			nl = p + strlen(p);
		cont = nl > p && nl[-1] == '\\';
		if (!var) {
			char *eq;

			for (q = p; *q == ' ' || *q == '\t'; q++)
				;
			eq = memchr(q, '=', (size_t)(nl - q));
			found = 0;
			reset = eq && eq > q && eq[-1] != '+' && *q != '#';
			var = eq && *q != '#' ? q : NULL;
			if (var) {
				char *e = var;

				while (e < eq && is_word_char(*e))
					e++;
				var = expand_var(k, q, (size_t)(e - q));
				p = eq + 1;
			}
		}
		for (q = p; var && q + wl <= nl && !found; q++)
			if (!strncmp(q, word, wl) && !is_word_char(q[-1]) &&
			    !is_word_char(q[wl]))
				found = 1;
		if (!cont && var) {
			if (reset || found)
				for (i = 0; i < nhits; i++)
					if (reset && !strcmp(hits[i], var)) {
						free(hits[i]);
						hits[i--] = hits[--nhits];
					}
			if (found && nhits < MAX_HITS) {
				hits[nhits++] = var;
				mentioned = 1;
			} else {
				free(var);
			}
			var = NULL;
		}
		p = *nl ? nl + 1 : nl;
	}
	free(var);
	free(text);
	for (i = 0; i < nhits; i++) {
		if (!built && var_builds(k, dir, hits[i], depth))
			built = 1;
		free(hits[i]);
	}
	if (word[wl - 1] == '/' && !mentioned)
		built = 1;
	if (built && strchr(dir, '/')) {
		/* The directory must be reached from its parent. */
		const char *slash = strrchr(dir, '/');
		char *parent = xstrndup(dir, (size_t)(slash - dir));
		char *sub = xasprintf("%s/", slash + 1);

		built = listed(k, parent, sub, depth + 1);
		free(parent);
		free(sub);
	}
	return built;
}

int vkbuild_builds(struct vkbuild *k, const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir, *obj;
	int ok;

	if (!slash || !str_has_suffix(path, ".c"))
		return 0;
	/* Another arch's directory is not built for this one. */
	if (str_has_prefix(path, "arch/") && k->srcarch &&
	    (strncmp(path + 5, k->srcarch, strlen(k->srcarch)) ||
	     path[5 + strlen(k->srcarch)] != '/'))
		return 0;
	dir = xstrndup(path, (size_t)(slash - path));
	obj = xasprintf("%.*s.o", (int)(strlen(slash + 1) - 2), slash + 1);
	ok = listed(k, dir, obj, 0);
	free(dir);
	free(obj);
	return ok;
}

/* The farm under construction (nftw has no user pointer). */
static struct vkbuild *farm_k;
static size_t farm_root;

static int copy_file(const char *src, const char *dst, mode_t mode)
{
	char *buf;
	size_t len;
	int fd, rc = 0;

	if (read_whole_file(src, &buf, &len))
		return -1;
	unlink(dst);
	fd = open(dst, O_WRONLY | O_CREAT | O_EXCL, mode & 0777);
	if (fd < 0 || write(fd, buf, len) != (ssize_t)len)
		rc = -1;
	if (fd >= 0 && close(fd))
		rc = -1;
	free(buf);
	return rc;
}

/* Does kbuild write this file (so the farm needs a real copy)? */
static int written_by_kbuild(const char *rel, const struct stat *st)
{
	static const char *const dirs[] = {"scripts/", "tools/objtool/",
					   "include/generated/",
					   "include/config/", NULL};
	static const char *const sufs[] = {".o", ".a", ".s", ".cmd", ".d",
					   ".ko", ".mod", ".order", ".symvers",
					   ".tmp", ".i", ".lst", NULL};
	const char *base = strrchr(rel, '/');
	char *cmd;
	int i, ok;

	base = base ? base + 1 : rel;
	if (st->st_size > COPY_MAX)
		return 0;
	/* Made or changed since the tree was configured: kbuild's own. */
	if (st->st_mtime >= farm_k->configured_at)
		return 1;
	for (i = 0; dirs[i]; i++)
		if (str_has_prefix(rel, dirs[i]))
			return 1;
	if (str_has_prefix(rel, "arch/") && strstr(rel, "/include/generated/"))
		return 1;
	if (base == rel || base[0] == '.')
		return 1; /* .config, top-level outputs, .cmd files */
	for (i = 0; sufs[i]; i++)
		if (str_has_suffix(base, sufs[i]))
			return 1;
	/* A file kbuild generated with if_changed has a .NAME.cmd beside. */
	cmd = xasprintf("%s/%.*s.%s.cmd", farm_k->tree, (int)(base - rel), rel,
			base);
	ok = access(cmd, F_OK) == 0;
	free(cmd);
	return ok;
}

static int farm_one(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	const char *rel = path + farm_root;
	char *dst;
	int rc = 0;

	(void)ftw;
	if (*rel == '/')
		rel++;
	if (!strcmp(rel, ".git") || str_has_prefix(rel, ".git/"))
		return 0;
	dst = xasprintf("%s/%s", farm_k->farm, rel);
	if (flag == FTW_D)
		rc = mkdir(dst, 0755) && errno != EEXIST ? -1 : 0;
	else if (flag == FTW_F && S_ISREG(st->st_mode))
		rc = written_by_kbuild(rel, st)
			     ? copy_file(path, dst, st->st_mode)
			     : symlink(path, dst);
	free(dst);
	return rc ? -1 : 0;
}

static int make_farm(struct vkbuild *k)
{
	if (k->state)
		return k->state < 0 ? -1 : 0;
	farm_k = k;
	farm_root = strlen(k->tree);
	k->state = (mkdir_p(k->farm) == 0 &&
		    nftw(k->tree, farm_one, 32, FTW_PHYS) == 0)
			   ? 1
			   : -1;
	if (k->state < 0)
		warn_msg("%s: cannot build the kbuild farm", k->farm);
	return k->state < 0 ? -1 : 0;
}

const char *vkbuild_arch(const struct vkbuild *k)
{
	return k->srcarch;
}

int vkbuild_put(struct vkbuild *k, const char *path, const char *file)
{
	struct stat st;
	char *dst;
	int rc;

	if (make_farm(k) || !path_is_safe_relative(path) || stat(file, &st))
		return -1;
	/* Never write through a link into the tree. */
	dst = xasprintf("%s/%s", k->farm, path);
	rc = copy_file(file, dst, st.st_mode);
	free(dst);
	return rc;
}

/* The farm's PATH.o and its .PATH.o.cmd (malloc'd), for obj = "d/x.o". */
static char *farm_cmd_file(const struct vkbuild *k, const char *obj)
{
	const char *slash = strrchr(obj, '/');
	size_t dl = slash ? (size_t)(slash + 1 - obj) : 0;

	return xasprintf("%s/%.*s.%s.cmd", k->farm, (int)dl, obj, obj + dl);
}

/*
 * The environment make runs in: the C locale, so that gcc quotes with
 * ASCII ' (messages are compared and shown), and no MAKEFLAGS of a make
 * that runs gfpaudit (its -j, its jobserver).
 */
static char **make_env(void)
{
	static const char *const drop[] = {"LC_", "LANG=", "LANGUAGE=",
					   "MAKEFLAGS=", "MFLAGS=",
					   "MAKELEVEL=", NULL};
	char **env;
	int i, j, n = 0;

	for (i = 0; environ[i]; i++)
		;
	env = xcalloc((size_t)i + 2, sizeof(char *));
	for (i = 0; environ[i]; i++) {
		for (j = 0; drop[j] && !str_has_prefix(environ[i], drop[j]);
		     j++)
			;
		if (!drop[j])
			env[n++] = environ[i];
	}
	env[n] = "LC_ALL=C";
	return env;
}

int vkbuild_make(struct vkbuild *k, char *const *objs, int n, int sparse,
		 struct strbuf *out)
{
	char **env = make_env();
	struct spawn_opts so = {.out = out, .err = out, .envp = env};
	char **argv = xcalloc((size_t)n + 8, sizeof(char *));
	char *arch = NULL;
	int i, a = 0, rc = -1;

	if (make_farm(k))
		goto out;
	for (i = 0; i < n; i++) {
		char *o, *cmd;

		if (!path_is_safe_relative(objs[i]) ||
		    !str_has_suffix(objs[i], ".o"))
			goto out;
		/* Removed, so that make builds it whatever the timestamps. */
		o = xasprintf("%s/%s", k->farm, objs[i]);
		cmd = farm_cmd_file(k, objs[i]);
		unlink(o);
		unlink(cmd);
		free(o);
		free(cmd);
	}
	argv[a++] = "make";
	argv[a++] = "-s";
	argv[a++] = "-k";
	if (sparse) {
		argv[a++] = "C=2";
		argv[a++] = "CHECK=sparse -fdiagnostic-prefix";
	}
	if (k->arch)
		argv[a++] = arch = xasprintf("ARCH=%s", k->arch);
	if (k->llvm)
		argv[a++] = "LLVM=1";
	for (i = 0; i < n; i++)
		argv[a++] = objs[i];
	so.cwd = k->farm;
	rc = run_argv(argv, &so);
out:
	free(arch);
	free(argv);
	free(env);
	return rc;
}

int vkbuild_built(struct vkbuild *k, const char *obj)
{
	char *o = xasprintf("%s/%s", k->farm, obj);
	int ok = access(o, F_OK) == 0;

	free(o);
	return ok;
}

int vkbuild_uses(struct vkbuild *k, const char *obj, const char *path)
{
	char *cmd = farm_cmd_file(k, obj), *text, *p;
	size_t len, pl = strlen(path);
	int found = 0;

	if (read_whole_file(cmd, &text, &len)) {
		free(cmd);
		return 0;
	}
	/* fixdep writes each dependency as a word: "  include/x.h \" */
	for (p = text; !found && (p = strstr(p, path)); p += pl)
		found = (p == text || strchr(" \t\n=", p[-1])) &&
			strchr(" \t\n\\", p[pl]) && p[pl];
	free(text);
	free(cmd);
	return found;
}

const char *vkbuild_args(const struct vkbuild *k, int sparse, char *buf,
			 size_t len)
{
	snprintf(buf, len, "make%s%s%s%s",
		 sparse ? " C=2 CHECK='sparse -fdiagnostic-prefix'" : "",
		 k->arch ? " ARCH=" : "", k->arch ? k->arch : "",
		 k->llvm ? " LLVM=1" : "");
	return buf;
}
