/* SPDX-License-Identifier: MIT */
/*
 * src/wire/bytes.h: network byte order at any alignment, and the round
 * trip through it.
 */
#include <stdint.h>
#include <string.h>

#include "wire/bytes.h"
#include "tap.h"

int main(void)
{
	uint8_t b[8] = {0xde, 0xad, 0xbe, 0xef, 0x01, 0x02, 0x03, 0x04};
	uint8_t out[9];

	is_int(wire_get16(b), 0xdead, "get16");
	is_int(wire_get16(b + 1), 0xadbe, "get16 at an odd address");
	ok(wire_get32(b) == 0xdeadbeefu, "get32, top bit set");
	ok(wire_get32(b + 3) == 0xef010203u, "get32 at an odd address");
	memset(out, 0, sizeof(out));
	wire_put16(out + 1, 0xabcd);
	wire_put32(out + 3, 0x80000001u);
	ok(out[0] == 0 && out[1] == 0xab && out[2] == 0xcd && out[3] == 0x80 &&
		   out[4] == 0 && out[5] == 0 && out[6] == 0x01 && out[7] == 0,
	   "put16 and put32 write their octets and no others");
	ok(wire_get16(out + 1) == 0xabcd && wire_get32(out + 3) == 0x80000001u,
	   "round trip");
	return done_testing();
}
