#include "tap.h"
int main(void)
{
	return done_testing();
}
