// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: clex_tokens() over arbitrary bytes, and the tokens
 * tu.c makes of its starts (every offset inside the input, in order).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "analyzer/tu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tu_parser tp = { 0 };
	struct lexfile lf = { 0 };
	size_t i;

	lf.buf = (const char *)data;
	lf.len = size;
	tu_lex_tokens(&tp, &lf);
	for (i = 0; i < lf.ntoks; i++)
		if (lf.toks[i].off + lf.toks[i].len > size ||
		    (i && lf.toks[i].off < lf.toks[i - 1].off + lf.toks[i - 1].len))
			abort();
	free(lf.toks);
	clex_free(&tp.toks);
	return 0;
}
