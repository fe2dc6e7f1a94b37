/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_SUMMARIES_H
#define GFPAUDIT_SUMMARIES_H

#include <sqlite3.h>

/*
 * The summaries step: "may sleep" solved over the whole tree's call graph
 * (the `functions` rows of fnsum.h), then every site whose buffer is held
 * across a call (sites.held_calls) that may sleep gets held_across_sleep
 * 1 with the chain as evidence (`copy_data() at line 40 -> copy_out() ->
 * copy_to_user() at line 12 (lib/x.c)`).  A call resolves to the static
 * function of the caller's file by that name, else to the tree's global
 * definitions of it, else to static ones in headers; a name defined
 * several times (per arch) may sleep when one of them does.  Everything is
 * recomputed from the rows each time (a classifier link step), so a
 * re-scan or a merge gives what one whole scan gives.
 */
int summaries_link(sqlite3 *db);

/*
 * How check_context.c's evidence begins for the sites whose context only
 * the callers can decide: no atomic section in the function and flags
 * that do not sleep, or an irq handler registered in another file.  The
 * summaries step makes those `atomic` when the function runs in atomic
 * context (summaries_ctx.c) and gives them back otherwise.
 */
#define CTX_EV_NO_SECTION "no atomic section here"
/*
 * ... and flags a condition picks (gfp_text_path_picks()): a caller's
 * section does not make the site atomic, its flags may be the atomic ones
 */
#define CTX_EV_PATH_PICKS CTX_EV_NO_SECTION ", and the path picks the flags"
#define CTX_EV_IRQ_ELSEWHERE "irq handler not registered in this file"
/*
 * An atomic context that comes through an __init function: booting, with
 * irqs off in start_kernel() (readers label it atomic), but no
 * sleep-in-atomic bug, which the rule tells by `__init` in the evidence.
 * Arguments: the evidence so far, the __init function's name.
 */
#define CTX_EV_BOOT_FMT                                                       \
	"%s; early boot, under __init %s(): reclaim is masked and "           \
	"might_sleep() does not check"
/* ... the same for a function a boot table names (data/atomic.txt `boot`) */
#define CTX_EV_BOOT_TABLE_FMT                                                 \
	"%s; early boot, a boot table's (__init time): reclaim is masked "    \
	"and might_sleep() does not check"

#endif
