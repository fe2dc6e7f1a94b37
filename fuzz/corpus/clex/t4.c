// line \
continued
#include <linux/slab.h>
#error don't
`
restrict _Bool __int128 __builtin_offsetof typeof asm
foo\
\
bar
