// SPDX-License-Identifier: GPL-2.0
/*
 * Child processes (git, sparse, spatch, perl, make) are started with
 * posix_spawnp() and an argv array, so no path or user string is ever
 * interpreted by a shell.
 */
#include "lib/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static int pump(int out_fd, struct strbuf *out, int err_fd,
		struct strbuf *err, int in_fd, const char *in, size_t in_len)
{
	size_t in_off = 0;
	char buf[65536];

	while (out_fd >= 0 || err_fd >= 0 || in_fd >= 0) {
		struct pollfd p[3];
		int n = 0, io = -1, ie = -1, ii = -1;

		if (out_fd >= 0) {
			p[n] = (struct pollfd){ out_fd, POLLIN, 0 };
			io = n++;
		}
		if (err_fd >= 0) {
			p[n] = (struct pollfd){ err_fd, POLLIN, 0 };
			ie = n++;
		}
		if (in_fd >= 0) {
			p[n] = (struct pollfd){ in_fd, POLLOUT, 0 };
			ii = n++;
		}
		if (poll(p, (nfds_t)n, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (io >= 0 && p[io].revents) {
			ssize_t r = read(out_fd, buf, sizeof(buf));

			if (r > 0)
				sb_add(out, buf, (size_t)r);
			else if (r == 0 || errno != EINTR) {
				close(out_fd);
				out_fd = -1;
			}
		}
		if (ie >= 0 && p[ie].revents) {
			ssize_t r = read(err_fd, buf, sizeof(buf));

			if (r > 0)
				sb_add(err, buf, (size_t)r);
			else if (r == 0 || errno != EINTR) {
				close(err_fd);
				err_fd = -1;
			}
		}
		if (ii >= 0 && p[ii].revents) {
			ssize_t w = 0;

			if (p[ii].revents & POLLOUT)
				w = write(in_fd, in + in_off, in_len - in_off);
			if (w > 0)
				in_off += (size_t)w;
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0 || in_off == in_len) {
				close(in_fd);
				in_fd = -1;
			}
		}
	}
	return 0;
}

int run_argv(char *const argv[], const struct spawn_opts *o)
{
	static const struct spawn_opts none;
	posix_spawn_file_actions_t fa;
	int out_p[2] = { -1, -1 }, err_p[2] = { -1, -1 }, in_p[2] = { -1, -1 };
	int status, rc;
	pid_t pid;

	if (!o)
		o = &none;
	if ((o->out && pipe2(out_p, O_CLOEXEC)) ||
	    (o->err && pipe2(err_p, O_CLOEXEC)) ||
	    (o->stdin_data && pipe2(in_p, O_CLOEXEC)))
		return -1;
	posix_spawn_file_actions_init(&fa);
	if (o->cwd)
		posix_spawn_file_actions_addchdir_np(&fa, o->cwd);
	if (o->stdin_data)
		posix_spawn_file_actions_adddup2(&fa, in_p[0], 0);
	else
		posix_spawn_file_actions_addopen(&fa, 0, "/dev/null",
						 O_RDONLY, 0);
	if (o->out)
		posix_spawn_file_actions_adddup2(&fa, out_p[1], 1);
	else if (o->quiet)
		posix_spawn_file_actions_addopen(&fa, 1, "/dev/null",
						 O_WRONLY, 0);
	if (o->err)
		posix_spawn_file_actions_adddup2(&fa, err_p[1], 2);
	else if (o->quiet)
		posix_spawn_file_actions_addopen(&fa, 2, "/dev/null",
						 O_WRONLY, 0);
	rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv,
			  o->envp ? o->envp : environ);
	posix_spawn_file_actions_destroy(&fa);
	if (out_p[1] >= 0)
		close(out_p[1]);
	if (err_p[1] >= 0)
		close(err_p[1]);
	if (in_p[0] >= 0)
		close(in_p[0]);
	if (rc) {
		if (out_p[0] >= 0)
			close(out_p[0]);
		if (err_p[0] >= 0)
			close(err_p[0]);
		if (in_p[1] >= 0)
			close(in_p[1]);
		errno = rc;
		return -1;
	}
	{
		/* A child that exits early must not kill us with SIGPIPE. */
		void (*old)(int) = signal(SIGPIPE, SIG_IGN);

		pump(out_p[0], o->out, err_p[0], o->err, in_p[1],
		     o->stdin_data, o->stdin_len);
		signal(SIGPIPE, old);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

int have_program(const char *name)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL;
	int found = 0;

	if (strchr(name, '/'))
		return access(name, X_OK) == 0;
	if (!path)
		path = "/usr/bin:/bin";
	copy = xstrdup(path);
	for (dir = strtok_r(copy, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		char *p = xasprintf("%s/%s", dir, name);
		struct stat st;

		found = stat(p, &st) == 0 && S_ISREG(st.st_mode) &&
			access(p, X_OK) == 0;
		free(p);
	}
	free(copy);
	return found;
}
