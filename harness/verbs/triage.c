// SPDX-License-Identifier: GPL-2.0-or-later
#include "bootproof.h"
#include "util/log.h"

int verb_triage(int argc, char **argv)
{
	log_error("triage: not implemented yet");
	return BP_EXIT_INFRA;
}
