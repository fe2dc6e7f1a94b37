-- A small findings database for the report tests (tests/t50xx).  Written
-- by hand to cover every report section, with strings that must be
-- escaped (<script>, |, quotes, newlines, UTF-8).  @TREE@ is replaced by
-- the test with its fixture tree (which holds a MAINTAINERS file).
INSERT INTO runs(command, tree, kernel_version, git_head, arch, started_at,
	finished_at, status, files_total, files_parsed, files_unchanged,
	files_failed)
VALUES ('scan', '@TREE@', '6.1.0', NULL, 'x86', '2026-12-03T08:00:00Z',
	'2026-12-03T08:01:00Z', 'complete', 4, 4, 0, 1);
INSERT INTO files(id, path, hash, size, run_id, parse_mode, diagnostics) VALUES
	(1, 'fs/proc/base.c', '0000000000000001', 100, 1, 'kbuild', 0),
	(2, 'fs/proc/proc_sysctl.c', '0000000000000002', 100, 1, 'kbuild', 0),
	(3, 'mm/slab.c', '0000000000000003', 100, 1, 'kbuild', 2),
	(4, 'drivers/x/<b>.c', '0000000000000004', 100, 1, 'failed', 1);
INSERT INTO flag_uses(file_id, path, line, col, flag, context, function,
	call, in_disabled_branch) VALUES
	(1, 'fs/proc/base.c', 10, 20, 'GFP_TEMPORARY', 'call_arg', 'f', 'kmalloc', 0),
	(1, 'fs/proc/base.c', 30, 5, 'GFP_TEMPORARY', 'call_arg', 'g', '__get_free_page', 0),
	(1, 'fs/proc/base.c', 40, 5, '__GFP_RECLAIMABLE', 'macro_def', NULL, NULL, 1),
	(2, 'fs/proc/proc_sysctl.c', 7, 3, 'GFP_TEMPORARY', 'call_arg', 'h', 'kmalloc', 0),
	(3, 'mm/slab.c', 99, 9, 'SLAB_RECLAIM_ACCOUNT', 'initializer', NULL, NULL, 0);
INSERT INTO sites(file_id, path, line, col, function, api, flags, flags_line,
	flags_col, migratetype, lifetime, lifetime_evidence, context,
	context_evidence, held_across_sleep, confidence) VALUES
	(1, 'fs/proc/base.c', 10, 8, 'f', 'kmalloc', 'GFP_TEMPORARY', 10, 20,
	 'reclaimable', 'scoped', 'kfree(buf)', 'process', NULL, 0, 'full_ast'),
	(1, 'fs/proc/base.c', 30, 2, 'g', '__get_free_page', 'GFP_TEMPORARY', 30, 5,
	 'reclaimable', 'stored', 'p->page = ...', 'atomic',
	 'spin_lock(&p->lock) at line 28', 1, 'full_ast'),
	(2, 'fs/proc/proc_sysctl.c', 7, 1, 'h', 'kmalloc', 'GFP_TEMPORARY', 7, 3,
	 'reclaimable', 'scoped', 'kfree(x)', 'process', NULL, 0, 'full_ast'),
	(3, 'mm/slab.c', 50, 1, 'k', 'kzalloc', 'GFP_KERNEL', 50, 10,
	 'unmovable', NULL, NULL, NULL, NULL, NULL, 'lexical');
-- the flags the calls allocate with (sites.flags_used): as written here
UPDATE sites SET flags_used = flags;
INSERT INTO findings(rule, severity, path, line, col, message, suggestion,
	site_id, run_id) VALUES
	('temporary-to-kernel', 'warning', 'fs/proc/base.c', 10, 20,
	 'GFP_TEMPORARY is GFP_KERNEL | __GFP_RECLAIMABLE; use GFP_KERNEL',
	 'GFP_KERNEL', 1, 1),
	('sleep-in-atomic', 'error', 'fs/proc/base.c', 30, 2,
	 'allocation may sleep while holding spin_lock(&p->lock) <script>alert("x")</script> | pipe',
	 'GFP_ATOMIC', 2, 1),
	('temporary-to-kernel', 'warning', 'fs/proc/proc_sysctl.c', 7, 3,
	 'multi
line message with ünïcode & ''quotes''', 'GFP_KERNEL', 3, 1),
	('reclaimable-without-shrinker', 'note', 'drivers/x/<b>.c', 1, 1,
	 'cache "x" is SLAB_RECLAIM_ACCOUNT but has no shrinker', NULL, NULL, 1);
INSERT INTO patches(series, rule, number, file, subject, files_changed,
	insertions, deletions, created_at) VALUES
	('out/series', 'temporary-to-kernel', 0, '0000-cover-letter.patch',
	 '[PATCH 0/2] mm: remove GFP_TEMPORARY users', 0, 0, 0, '2026-12-03T08:02:00Z'),
	('out/series', 'temporary-to-kernel', 1, '0001-fs-proc-base.patch',
	 '[PATCH 1/2] fs/proc: replace GFP_TEMPORARY with GFP_KERNEL', 1, 2, 2,
	 '2026-12-03T08:02:00Z'),
	('out/series', 'temporary-to-kernel', 2, '0002-fs-proc-sysctl.patch',
	 '[PATCH 2/2] fs/proc/sysctl: <drop> GFP_TEMPORARY', 1, 1, 1,
	 '2026-12-03T08:02:00Z');
INSERT INTO validations(series, patch, path, check_name, result, detail,
	created_at) VALUES
	('out/series', '0001-fs-proc-base.patch', NULL, 'apply', 'pass', NULL, '2026-12-03T08:03:00Z'),
	('out/series', '0001-fs-proc-base.patch', 'fs/proc/base.c', 'compile', 'pass', NULL, '2026-12-03T08:03:00Z'),
	('out/series', '0002-fs-proc-sysctl.patch', NULL, 'checkpatch', 'fail',
	 'WARNING: line length of 101 exceeds 100 columns', '2026-12-03T08:03:00Z'),
	('out/series', NULL, NULL, 'impact', 'skip', 'no simulation', '2026-12-03T08:03:00Z');
INSERT INTO sim_results(experiment, rule, policy, variant, metric, value,
	created_at) VALUES
	('impact', 'temporary-to-kernel', '6.1', 'as-is', 'highorder_success_pct', 71.25, '2026-12-03T08:04:00Z'),
	('impact', 'temporary-to-kernel', '6.1', 'patched', 'highorder_success_pct', 74.5, '2026-12-03T08:04:00Z'),
	('impact', 'temporary-to-kernel', '6.1', 'as-is', 'mixed_pageblocks', 40, '2026-12-03T08:04:00Z'),
	('impact', 'temporary-to-kernel', '6.1', 'patched', 'mixed_pageblocks', 31, '2026-12-03T08:04:00Z'),
	('antifrag', NULL, 'nogroup', '-', 'fallbacks', 1234, '2026-12-03T08:04:00Z');
WITH RECURSIVE s(step) AS (SELECT 0 UNION ALL SELECT step + 10 FROM s WHERE step < 200)
INSERT INTO sim_curves(experiment, rule, policy, variant, step, free_order9)
	SELECT 'impact', 'temporary-to-kernel', '6.1', 'as-is', step, 500 - step * 2 FROM s
	UNION ALL
	SELECT 'impact', 'temporary-to-kernel', '6.1', 'patched', step, 500 - step FROM s;
