/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GFPAUDIT_KARCH_H
#define GFPAUDIT_KARCH_H

/*
 * Kernel architecture names, in one table (sparse's manner: one
 * definition, every use generated from it).  scan parses a tree for an
 * arch, validate compiles a patched file for its arch, check turns
 * sparse's --arch= into clang's --target=, and kbuild's default ARCH is
 * the host's: each used to keep its own copy, and the copies disagreed.
 *
 * KARCH(name, triple, triple64, triple32)
 *   name      the kernel's SRCARCH, the directory under arch/
 *   triple    clang's --target= when the word size is not known (scan,
 *             validate): kbuild's own CLANG_TARGET_FLAGS_<name>
 *             (scripts/Makefile.clang) where the kernel has one, so that
 *             a tree is parsed as `make LLVM=1 ARCH=<name>` compiles it
 *   triple64  for sparse's -m64 (check); "" when the arch has none
 *   triple32  for sparse's -m32 (check); "" when the arch has none
 *
 * "" rather than NULL, so that "--target=" triple can be pasted at
 * compile time (karch_target_option()).  Alphabetical: it is the order
 * an unknown --arch lists the known ones in.
 */
#define KARCH_TABLE(X)                                                    \
	X(arm, "arm-linux-gnueabi", "", "arm-linux-gnueabi")              \
	X(arm64, "aarch64-linux-gnu", "aarch64-linux-gnu", "")            \
	X(hexagon, "hexagon-linux-musl", "", "hexagon-linux-musl")        \
	X(loongarch, "loongarch64-linux-gnu", "loongarch64-linux-gnu", "") \
	X(m68k, "m68k-linux-gnu", "", "m68k-linux-gnu")                   \
	X(mips, "mipsel-linux-gnu", "mips64el-linux-gnuabi64",            \
	  "mipsel-linux-gnu")                                             \
	X(powerpc, "powerpc64le-linux-gnu", "powerpc64le-linux-gnu",      \
	  "powerpc-linux-gnu")                                            \
	X(riscv, "riscv64-linux-gnu", "riscv64-linux-gnu",                \
	  "riscv32-linux-gnu")                                            \
	X(s390, "s390x-linux-gnu", "s390x-linux-gnu", "")                 \
	X(sparc, "sparc64-linux-gnu", "sparc64-linux-gnu",                \
	  "sparc-linux-gnu")                                              \
	X(x86, "x86_64-linux-gnu", "x86_64-linux-gnu", "i386-linux-gnu")

/*
 * KARCH_ALIAS(arch, name, bits): an ARCH kbuild accepts besides the
 * SRCARCH names (the top-level Makefile maps them, and passes ARCH, not
 * SRCARCH, to sparse as --arch=), with the word size it implies; aarch64
 * is sparse's own name for arm64.  Only check reads sparse's command
 * line; scan and validate take SRCARCH names.
 */
#define KARCH_ALIAS_TABLE(X)                                              \
	X(aarch64, arm64, 64)                                             \
	X(i386, x86, 32)                                                  \
	X(sparc32, sparc, 32)                                             \
	X(sparc64, sparc, 64)                                             \
	X(x86_64, x86, 64)

/*
 * KARCH_HOST(pattern, name): `uname -m` (an fnmatch(3) pattern) to the
 * SRCARCH kbuild builds for when no ARCH is given, as the top-level
 * Makefile's SUBARCH sed script maps it; the first match wins.
 */
#define KARCH_HOST_TABLE(X)                                               \
	X("x86_64", x86)                                                  \
	X("i?86", x86)                                                    \
	X("aarch64*", arm64)                                              \
	X("arm*", arm)                                                    \
	X("sa110", arm)                                                   \
	X("ppc*", powerpc)                                                \
	X("riscv*", riscv)                                                \
	X("s390*", s390)                                                  \
	X("mips*", mips)                                                  \
	X("sparc*", sparc)                                                \
	X("sun4u", sparc)                                                 \
	X("loongarch*", loongarch)

/* 1 when NAME is a SRCARCH of the table. */
int karch_known(const char *name);

/* 1 when NAME is a SRCARCH of the table or one of its kbuild aliases. */
int karch_known_alias(const char *name);

/* "arm, arm64, ..., x86" (with the aliases after them when ALIASES). */
const char *karch_list(int aliases);

/* clang's target triple for SRCARCH NAME, or NULL when it is unknown. */
const char *karch_triple(const char *name);

/*
 * "--target=TRIPLE" for NAME (a SRCARCH or an alias) and BITS (64, 32,
 * or 0 when not given; an alias's own word size wins), or NULL when
 * there is no such triple: clang then targets the host, as before.
 */
const char *karch_target_option(const char *name, int bits);

/* The SRCARCH of `uname -m` MACHINE, or NULL when the table has none. */
const char *karch_of_machine(const char *machine);

/*
 * The host's SRCARCH: karch_of_machine() of uname's machine, that
 * machine name itself when the table does not know it (arch/<machine>
 * may still exist), NULL when uname() fails.
 */
const char *karch_host(void);

#endif
