// SPDX-License-Identifier: GPL-2.0-or-later
#include <sys/resource.h>
#include <time.h>

#include "util/clock.h"

double clock_mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

long long clock_mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

double clock_children_cpu_s(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_CHILDREN, &ru) < 0)
		return 0;
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}
