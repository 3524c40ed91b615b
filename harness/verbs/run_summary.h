/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run_summary: the end of a matrix run on stdout, for `bootproof run` and
 * `bootproof merge`: a table of the group verdicts per arch, each verdict
 * other than PASS with its reason and reproducer, the costs, where the
 * results are.  report: the path of report.html (or NULL).
 */
#ifndef BP_VERBS_RUN_SUMMARY_H
#define BP_VERBS_RUN_SUMMARY_H

#include "engine/runrec.h"

void run_summary_print(const struct run *run, const char *report);

#endif
