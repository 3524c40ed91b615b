/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Ctrl-C, SIGTERM and SIGHUP as a flag: a long verb (boot, run) installs
 * the handler and passes the flag to the engine, which polls it, tears its
 * guests down and records what it has, marked incomplete.
 */
#ifndef BOOTPROOF_UTIL_INTERRUPT_H
#define BOOTPROOF_UTIL_INTERRUPT_H

#include <signal.h>

/*
 * Catch SIGINT, SIGTERM and SIGHUP from now on (without SA_RESTART, so a
 * blocking call returns EINTR); returns the flag, 0 until one arrives,
 * then the number of the last signal caught.
 */
volatile sig_atomic_t *interrupt_catch(void);

#endif
