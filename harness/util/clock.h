/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef BOOTPROOF_UTIL_CLOCK_H
#define BOOTPROOF_UTIL_CLOCK_H

/* Seconds on the monotonic clock (for durations only). */
double clock_mono_s(void);

/* Milliseconds on the monotonic clock (for deadlines and durations). */
long long clock_mono_ms(void);

/* CPU seconds (user + system) of the children reaped so far. */
double clock_children_cpu_s(void);

#endif
