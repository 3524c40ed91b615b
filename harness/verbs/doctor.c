// SPDX-License-Identifier: GPL-2.0-or-later
#include "bootproof.h"
#include "util/log.h"

int verb_doctor(int argc, char **argv)
{
	log_error("doctor: not implemented yet");
	return BP_EXIT_INFRA;
}
