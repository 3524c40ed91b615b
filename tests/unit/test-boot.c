// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The boot engine with a fake guest (tests/unit/support/fake_domain.c)
 * replaying real console logs from tests/data/console/: the engine's
 * verdicts, exit codes, files, clean-up and records.  The libvirt adapter
 * itself is tested for real in tests/integration/boot-*.sh.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adapters/proc.h"
#include "core/agentchan.h"
#include "engine/boot.h"
#include "boot_fixture.h"
#include "fake_domain.h"
#include "util/fileio.h"
#include "util/jsonx.h"
#include "util/paths.h"
#include "util/strbuf.h"

static struct boot_fixture fx;

static int setup(void **state)
{
	return boot_fixture_setup(&fx, "test");
}

static int teardown(void **state)
{
	boot_fixture_teardown(&fx);
	return 0;
}

static char *data(const char *name)
{
	char *p;

	assert_true(asprintf(&p, "%s/console/%s", TEST_DATA, name) > 0);
	return p;
}

/* The console log in the run directory is byte for byte what the guest
 * printed. */
static void assert_log_copied(const char *src)
{
	_cleanup_strbuf_ struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	_cleanup_free_ char *p = path_join(fx.run_dir, "console.log");

	assert_true(strbuf_read_file(&a, src, 0) >= 0);
	assert_true(strbuf_read_file(&b, p, 0) >= 0);
	assert_int_equal(a.len, b.len);
	assert_memory_equal(a.buf, b.buf, a.len);
}

static void test_clean_boot(void **state)
{
	_cleanup_free_ char *log = data("debian61-boot.log");
	struct fake_domain f = { .log = log, .end = GUEST_SHUTOFF,
				 .end_reason = "guest shut down" };
	struct boot_request r = boot_fixture_req(&fx, "bootproof-test");
	struct boot_outcome o;
	json_object *v;

	fake_domain_use(&f);
	fx.updates = 0;
	assert_int_equal(boot_run(&r, &o), 0);
	assert_int_equal(o.verdict, VERDICT_BOOTED);
	assert_int_equal(o.exit_code, 0);
	assert_string_equal(jsonx_text(o.record, "verdict"), "BOOTED");
	assert_string_equal(jsonx_text(o.record, "last_milestone"), "POWER_OFF");
	assert_non_null(strstr(jsonx_text(json_object_object_get(o.record, "kernel"),
				    "banner"),
			       "Linux version 6.1.0-57-amd64"));
	assert_true(json_object_object_get_ex(o.record, "complete", &v) &&
		    json_object_get_boolean(v));
	/* The command line has no agent when there is no image. */
	assert_null(strstr(jsonx_text(o.record, "cmdline"), "init="));
	assert_non_null(strstr(f.xml, "<kernel>"));
	assert_non_null(strstr(f.xml, fx.stage_dir));
	assert_true(fx.updates > 0);
	assert_int_equal(f.freed, 1);
	assert_log_copied(log);
	/* The staging directory is gone. */
	assert_int_equal(access(fx.stage_dir, F_OK), -1);
	json_object_put(o.record);
	free(f.xml);
}

/* A guest reported ended while libvirt still cleans up after it (virt.c:
 * a guest that shut down): its staged files stay while libvirt holds the
 * domain, go by themselves as soon as it lets go (a process of their
 * own: the boot does not wait), and a boot beside it leaves them alone. */
static bool gone_within(const char *path, unsigned ms)
{
	for (unsigned t = 0; t < ms; t += 10) {
		if (access(path, F_OK) < 0)
			return true;
		usleep(10 * 1000);
	}
	return access(path, F_OK) < 0;
}

static void test_stage_held(void **state)
{
	_cleanup_free_ char *log = data("debian61-boot.log");
	_cleanup_free_ char *lock = NULL, *parent = strdup(fx.stage_dir);
	_cleanup_free_ char *other = NULL, *marker = NULL;
	struct fake_domain f = { .log = log, .end = GUEST_SHUTOFF,
				 .end_reason = "guest shut down" };
	struct boot_request r = boot_fixture_req(&fx, "bootproof-test");
	struct boot_request r2;
	struct boot_outcome o;

	assert_true(asprintf(&lock, "%s.lock", fx.stage_dir) > 0);
	*strrchr(parent, '/') = '\0';
	other = path_join(parent, "bootproof-other");
	marker = path_join(fx.dir, "libvirt-holds-it");
	assert_int_equal(write_file_atomic(marker, "", 0, 0644), 0);
	r2 = boot_test_req("bootproof-other", fx.run_dir, other, fx.kernel);
	fake_domain_use(&f);
	fake_domain_hold("bootproof-test", marker);
	assert_int_equal(boot_run(&r, &o), 0);
	assert_int_equal(o.verdict, VERDICT_BOOTED);
	json_object_put(o.record);
	free(f.xml);
	f.xml = NULL;
	assert_int_equal(access(fx.stage_dir, F_OK), 0);
	assert_int_equal(access(lock, F_OK), 0);

	/* Another boot while libvirt still holds the first domain: its
	 * sweep leaves the first stage, its own goes. */
	assert_int_equal(boot_run(&r2, &o), 0);
	json_object_put(o.record);
	free(f.xml);
	f.xml = NULL;
	usleep(100 * 1000);
	assert_int_equal(access(fx.stage_dir, F_OK), 0);
	assert_int_equal(access(other, F_OK), -1);

	/* libvirt lets go: the stage and its lock go by themselves. */
	unlink(marker);
	assert_true(gone_within(fx.stage_dir, 5000));
	assert_true(gone_within(lock, 1000));
	fake_domain_hold(NULL, NULL);
}

/* The console stream lost the guest's last lines ("reboot: Power down"
 * among them): they are read back from QEMU's own log of ttyS0, the
 * verdict is the clean boot's and console.log is whole. */
static void test_console_readback(void **state)
{
	_cleanup_free_ char *log = data("debian61-boot.log");
	struct fake_domain f = { .log = log, .end = GUEST_SHUTOFF,
				 .end_reason = "guest shut down",
				 .lost_tail = 200, .serial_log = true };
	struct boot_request r = boot_fixture_req(&fx, "bootproof-test");
	struct boot_outcome o;

	fake_domain_use(&f);
	assert_int_equal(boot_run(&r, &o), 0);
	assert_non_null(strstr(f.xml, "<log file=\""));
	assert_int_equal(o.verdict, VERDICT_BOOTED);
	assert_string_equal(jsonx_text(o.record, "last_milestone"), "POWER_OFF");
	assert_log_copied(log);
	json_object_put(o.record);
	free(f.xml);

	/* Without QEMU's log the same stream is not a clean boot: the test
	 * sees the loss it claims to repair. */
	f = (struct fake_domain){ .log = log, .end = GUEST_SHUTOFF,
				  .end_reason = "guest shut down",
				  .lost_tail = 200 };
	fake_domain_use(&f);
	assert_int_equal(boot_run(&r, &o), 0);
	assert_int_not_equal(o.verdict, VERDICT_BOOTED);
	json_object_put(o.record);
	free(f.xml);
}

/* Any chunking gives the same verdict (the console parser is incremental). */
static void test_panic_any_chunking(void **state)
{
	_cleanup_free_ char *log = data("debian61-noroot-panic.log");
	const size_t chunks[] = { 1, 7, 4096, 65536 };

	for (size_t i = 0; i < ELEMENTSOF(chunks); i++) {
		struct fake_domain f = { .log = log, .chunk = chunks[i],
					 .end = GUEST_SHUTOFF };
		struct boot_request r = boot_fixture_req(&fx, "bootproof-test");
		struct boot_outcome o;
		json_object *p;

		fake_domain_use(&f);
		assert_int_equal(boot_run(&r, &o), 0);
		assert_int_equal(o.verdict, VERDICT_PANIC);
		assert_int_equal(o.exit_code, 1);
		assert_string_equal(jsonx_text(o.record, "reason"),
				    "Kernel panic - not syncing: VFS: Unable to "
				    "mount root fs on unknown-block(0,0)");
		p = json_object_object_get(o.record, "problems");
		assert_int_equal(json_object_array_length(p), 2);
		assert_string_equal(jsonx_text(json_object_array_get_idx(p, 1), "kind"),
				    "PANIC");
		json_object_put(o.record);
		free(f.xml);
	}
}

/* pvpanic without a message on the console is still a panic. */
static void test_pvpanic_event(void **state)
{
	_cleanup_free_ char *log = path_join(fx.dir, "short.log");
	struct fake_domain f = { .log = log, .end = GUEST_CRASHED };
	struct boot_request r = boot_fixture_req(&fx, "bootproof-test");
	struct boot_outcome o;
	const char *s = "[    0.000000] Linux version 6.12.118 (x) #1\r\n";

	assert_int_equal(write_file_atomic(log, s, strlen(s), 0644), 0);
	fake_domain_use(&f);
	assert_int_equal(boot_run(&r, &o), 0);
	assert_int_equal(o.verdict, VERDICT_PANIC);
	assert_non_null(strstr(jsonx_text(o.record, "reason"), "pvpanic"));
	json_object_put(o.record);
	free(f.xml);
}

/* A guest that stops talking: HUNG at the timeout, destroyed, with the
 * last milestone. */
static void test_hung(void **state)
{
	_cleanup_free_ char *full = data("debian61-boot.log");
	_cleanup_free_ char *log = path_join(fx.dir, "cut.log");
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	struct fake_domain f = { .log = log, .chunk = 65536,
				 .end = GUEST_RUNNING };
	struct boot_request r = boot_fixture_req(&fx, "bootproof-test");
	struct boot_outcome o;
	json_object *end;

	assert_true(strbuf_read_file(&sb, full, 0) > 20000);
	assert_int_equal(write_file_atomic(log, sb.buf, 20000, 0644), 0);
	fake_domain_use(&f);
	r.timeout_s = 1;
	assert_int_equal(boot_run(&r, &o), 0);
	assert_int_equal(o.verdict, VERDICT_HUNG);
	assert_int_equal(o.exit_code, 1);
	assert_string_equal(jsonx_text(o.record, "reason"),
			    "no end within 1s; last milestone: KERNEL_BANNER");
	assert_int_equal(f.destroyed, 1);
	end = json_object_object_get(o.record, "end");
	assert_string_equal(jsonx_text(end, "how"), "timeout");
	json_object_put(o.record);
	free(f.xml);
}

/* libvirt cannot start the guest: INFRA, exit 3, libvirt's words kept. */
static void test_start_fails(void **state)
{
	struct fake_domain f = {
		.start_error = -ECONNREFUSED,
		.start_err_text = "cannot connect to libvirt at fake:///: "
				  "Failed to connect socket",
	};
	struct boot_request r = boot_fixture_req(&fx, "bootproof-test");
	struct boot_outcome o;

	fake_domain_use(&f);
	assert_int_equal(boot_run(&r, &o), 0);
	assert_int_equal(o.verdict, VERDICT_INFRA);
	assert_int_equal(o.exit_code, 3);
	assert_non_null(strstr(jsonx_text(o.record, "reason"), "libvirt"));
	assert_int_equal(access(fx.stage_dir, F_OK), -1);
	json_object_put(o.record);
	free(f.xml);
}

/* The connection to libvirtd breaks mid-boot: INFRA, not the kernel. */
static void test_libvirt_lost(void **state)
{
	_cleanup_free_ char *full = data("debian61-boot.log");
	_cleanup_free_ char *log = path_join(fx.dir, "cut2.log");
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	struct fake_domain f = { .log = log, .end = GUEST_LOST,
				 .end_reason = "libvirtd closed the connection "
					       "(stopped?)" };
	struct boot_request r = boot_fixture_req(&fx, "bootproof-test");
	struct boot_outcome o;

	assert_true(strbuf_read_file(&sb, full, 0) > 15000);
	assert_int_equal(write_file_atomic(log, sb.buf, 15000, 0644), 0);
	fake_domain_use(&f);
	assert_int_equal(boot_run(&r, &o), 0);
	assert_int_equal(o.verdict, VERDICT_INFRA);
	assert_int_equal(o.exit_code, 3);
	assert_string_equal(jsonx_text(o.record, "reason"),
			    "libvirtd closed the connection (stopped?)");
	json_object_put(o.record);
	free(f.xml);
}

/* Ctrl-C: destroyed, INCOMPLETE, 130, what was seen is kept. */
static void test_interrupted(void **state)
{
	_cleanup_free_ char *full = data("debian61-boot.log");
	_cleanup_free_ char *log = path_join(fx.dir, "cut3.log");
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	static volatile sig_atomic_t intr;
	struct fake_domain f = { .log = log, .end = GUEST_RUNNING,
				 .interrupt_at_end = &intr };
	struct boot_request r = boot_fixture_req(&fx, "bootproof-test");
	struct boot_outcome o;
	json_object *v, *ms;

	assert_true(strbuf_read_file(&sb, full, 0) > 15000);
	assert_int_equal(write_file_atomic(log, sb.buf, 15000, 0644), 0);
	intr = 0;
	fake_domain_use(&f);
	r.interrupted = &intr;
	assert_int_equal(boot_run(&r, &o), 0);
	assert_int_equal(o.verdict, VERDICT_INCOMPLETE);
	assert_int_equal(o.exit_code, 130);
	assert_int_equal(f.destroyed, 1);
	assert_true(json_object_object_get_ex(o.record, "complete", &v));
	assert_false(json_object_get_boolean(v));
	ms = json_object_object_get(o.record, "milestones");
	assert_true(json_object_array_length(ms) >= 1);
	json_object_put(o.record);
	free(f.xml);
}

static void test_cmdline(void **state)
{
	struct boot_request r = boot_fixture_req(&fx, "bootproof-test");
	_cleanup_free_ char *a = NULL, *b = NULL;

	r.image = "/x/root.img";
	r.scenarios = "boot,kgdb";
	r.cmdline_extra = "quiet";
	a = boot_cmdline(&r, 0);
	assert_string_equal(a, "console=ttyS0,115200 panic=-1 printk.time=1 "
			       "root=/dev/vda rw "
			       "init=/bootproof/agent psi=1 "
			       "bootproof.scenarios=boot,kgdb "
			       "bootproof.timeout=120 quiet");
	b = boot_cmdline(&r, 4242);
	assert_non_null(strstr(b, " nokaslr bootproof.kgdb=ttyS1"));
}

/* qemu-img is not run in unit tests: the overlay is faked, its argv
 * checked. */
static int fake_qemu_img(const struct proc_cmd *cmd, struct proc_result *r,
			 void *opaque)
{
	int *calls = opaque;

	(*calls)++;
	assert_string_equal(cmd->argv[0], "qemu-img");
	assert_string_equal(cmd->argv[1], "create");
	assert_string_equal(cmd->argv[8], "/images/root.img");
	r->exited = true;
	r->exit_status = 0;
	return 0;
}

static json_object *scenario(json_object *rec, const char *name)
{
	json_object *sc = json_object_object_get(rec, "scenarios");

	for (size_t i = 0; i < json_object_array_length(sc); i++)
		if (!strcmp(jsonx_text(json_object_array_get_idx(sc, i), "name"), name))
			return json_object_array_get_idx(sc, i);
	return NULL;
}

/* The record's timeline has these phases (comma-separated) in this
 * order, each closed, and a total. */
static void assert_timeline(json_object *rec, const char *want)
{
	_cleanup_strbuf_ struct strbuf names = STRBUF_INIT;
	json_object *tl = jsonx_get(rec, "timeline");

	for (size_t i = 0; i < jsonx_len(tl, "phases"); i++) {
		json_object *p = jsonx_at(tl, "phases", i);

		strbuf_addf(&names, "%s%s", i ? "," : "", jsonx_str(p, "phase"));
		assert_non_null(jsonx_get(p, "seconds"));
	}
	assert_string_equal(names.buf, want);
	assert_non_null(jsonx_get(tl, "total_s"));
}

/* A real agent run (tests/data/boot/): every scenario's result, the kgdb
 * skip reason, and an agent asked for a scenario it never reported. */
static void test_agent_run(void **state)
{
	_cleanup_free_ char *log = NULL;
	struct fake_domain f = { .end = GUEST_SHUTOFF };
	struct boot_request r = boot_fixture_req(&fx, "bootproof-test");
	struct boot_outcome o;
	int calls = 0;
	const char *const pass[] = { "boot", "bpf", "cgroups", "userfaultfd",
				     "mm" };

	assert_true(asprintf(&log, "%s/boot/debian61-agent.log", TEST_DATA) > 0);
	f.log = log;
	fake_domain_use(&f);
	proc_set_dry_run(fake_qemu_img, &calls);
	r.image = "/images/root.img";
	r.scenarios = "boot,bpf,cgroups,userfaultfd,mm,kgdb";
	assert_int_equal(boot_run(&r, &o), 0);
	assert_int_equal(calls, 1);
	assert_int_equal(o.verdict, VERDICT_BOOTED);
	assert_int_equal(o.exit_code, 0);
	assert_int_equal(o.scenarios_failed, 0);
	for (size_t i = 0; i < ELEMENTSOF(pass); i++)
		assert_string_equal(jsonx_text(scenario(o.record, pass[i]), "result"),
				    "pass");
	assert_string_equal(jsonx_text(scenario(o.record, "kgdb"), "result"), "skip");
	assert_non_null(strstr(jsonx_text(scenario(o.record, "kgdb"), "reason"),
			       "CONFIG_KGDB not set"));
	assert_non_null(strstr(f.xml, "root.qcow2"));
	assert_non_null(strstr(jsonx_text(o.record, "cmdline"),
			       "init=/bootproof/agent"));
	assert_timeline(o.record,
			"stage,define,start,firmware,kernel,init,agent,"
			"scenario boot,agent,scenario bpf,agent,"
			"scenario cgroups,agent,scenario userfaultfd,agent,"
			/* kgdb skipped by its result line alone: the
			 * time after mm's result was its */
			"scenario mm,scenario kgdb,agent,power-off,"
			"teardown");
	json_object_put(o.record);
	free(f.xml);

	/* The same log, but a scenario was asked that it never reports:
	 * an error, and the run fails. */
	f = (struct fake_domain){ .log = log, .end = GUEST_SHUTOFF };
	fake_domain_use(&f);
	r.scenarios = "boot,bpf,cgroups,userfaultfd,mm,kgdb,nosuch";
	assert_int_equal(boot_run(&r, &o), 0);
	assert_int_equal(o.verdict, VERDICT_BOOTED);
	assert_int_equal(o.exit_code, 1);
	assert_int_equal(o.scenarios_failed, 1);
	assert_string_equal(jsonx_text(scenario(o.record, "nosuch"), "result"),
			    "error");
	json_object_put(o.record);
	free(f.xml);
	proc_set_dry_run(NULL, NULL);
}

/* A real run whose agent wrote its line to the virtio-serial channel
 * (tests/data/boot/debian61-channel.log): the line must be in the file
 * behind the channel, or the boot scenario fails although the guest
 * passed its check; it is kept as channel.log and recorded as the boot
 * scenario's host half. */
static void test_channel(void **state)
{
	static const char line[] = "bootproof-agent: channel ok 6.1.0-57-amd64\n";
	_cleanup_free_ char *log = NULL, *kept = NULL;
	_cleanup_strbuf_ struct strbuf got = STRBUF_INIT;
	struct fake_domain f = { .end = GUEST_SHUTOFF, .channel_text = line };
	struct boot_request r = boot_fixture_req(&fx, "bootproof-test");
	struct boot_outcome o;
	json_object *boot, *ch;
	double bytes;
	int calls = 0;

	assert_true(asprintf(&log, "%s/boot/debian61-channel.log", TEST_DATA) > 0);
	f.log = log;
	fake_domain_use(&f);
	proc_set_dry_run(fake_qemu_img, &calls);
	r.image = "/images/root.img";
	r.scenarios = "boot,bpf,cgroups,userfaultfd,mm,kgdb";
	assert_int_equal(boot_run(&r, &o), 0);
	assert_non_null(strstr(f.xml, "<channel type=\"file\">"));
	assert_int_equal(o.verdict, VERDICT_BOOTED);
	assert_int_equal(o.exit_code, 0);
	boot = scenario(o.record, "boot");
	assert_string_equal(jsonx_text(boot, "result"), "pass");
	ch = jsonx_get(jsonx_get(boot, "host"), "channel");
	assert_non_null(ch);
	assert_true(jsonx_num(ch, "bytes", &bytes));
	assert_int_equal(bytes, strlen(line));
	assert_true(jsonx_bool(ch, "agent_line", false));
	assert_string_equal(jsonx_text(ch, "file"), "channel.log");
	assert_string_equal(jsonx_text(jsonx_get(o.record, "files"), "channel"),
			    "channel.log");
	kept = path_join(fx.run_dir, "channel.log");
	assert_true(strbuf_read_file(&got, kept, 0) > 0);
	assert_string_equal(got.buf, line);
	json_object_put(o.record);
	free(f.xml);

	/* Nothing arrived: the guest's ok is not enough. */
	unlink(kept);
	f = (struct fake_domain){ .log = log, .end = GUEST_SHUTOFF };
	fake_domain_use(&f);
	assert_int_equal(boot_run(&r, &o), 0);
	assert_int_equal(o.verdict, VERDICT_BOOTED);
	assert_int_equal(o.exit_code, 1);
	assert_int_equal(o.scenarios_failed, 1);
	boot = scenario(o.record, "boot");
	assert_string_equal(jsonx_text(boot, "result"), "fail");
	assert_string_equal(jsonx_text(boot, "reason"),
			    "virtio_channel: the agent's line did not reach the host");
	ch = jsonx_get(jsonx_get(boot, "host"), "channel");
	assert_true(jsonx_num(ch, "bytes", &bytes));
	assert_int_equal(bytes, 0);
	assert_false(jsonx_bool(ch, "agent_line", true));
	assert_null(jsonx_text(ch, "file"));
	assert_int_equal(access(kept, F_OK), -1);
	json_object_put(o.record);
	free(f.xml);

	/* Something else arrived: still not the agent's line. */
	f = (struct fake_domain){ .log = log, .end = GUEST_SHUTOFF,
				  .channel_text = "garbage\n" };
	fake_domain_use(&f);
	assert_int_equal(boot_run(&r, &o), 0);
	assert_int_equal(o.exit_code, 1);
	assert_string_equal(jsonx_text(scenario(o.record, "boot"), "result"), "fail");
	json_object_put(o.record);
	free(f.xml);

	/* The older log, from before the check existed: no virtio_channel
	 * check, nothing to hold against the guest. */
	free(log);
	assert_true(asprintf(&log, "%s/boot/debian61-agent.log", TEST_DATA) > 0);
	f = (struct fake_domain){ .log = log, .end = GUEST_SHUTOFF };
	fake_domain_use(&f);
	assert_int_equal(boot_run(&r, &o), 0);
	assert_int_equal(o.exit_code, 0);
	assert_string_equal(jsonx_text(scenario(o.record, "boot"), "result"), "pass");
	json_object_put(o.record);
	free(f.xml);
	proc_set_dry_run(NULL, NULL);
}

/* The kernel's log over the channel, from a real boot
 * (tests/data/boot/debian61-dmesg-*: its console and the file QEMU kept
 * behind the channel): the host keeps the boot scenario's line as channel.log
 * and the log as dmesg.txt, and says whether all of the log arrived. */
static void test_channel_dmesg(void **state)
{
	_cleanup_free_ char *log = NULL, *raw_path = NULL, *kept = NULL,
			    *kept_log = NULL;
	_cleanup_strbuf_ struct strbuf raw = STRBUF_INIT, got = STRBUF_INIT,
				       dmesg = STRBUF_INIT;
	struct fake_domain f = { .end = GUEST_SHUTOFF };
	struct boot_request r = boot_fixture_req(&fx, "bootproof-test");
	struct boot_outcome o;
	struct agentchan c;
	json_object *d, *ch;
	double num;
	int calls = 0;

	assert_true(asprintf(&log, "%s/boot/debian61-dmesg-console.log", TEST_DATA) > 0);
	assert_true(asprintf(&raw_path, "%s/boot/debian61-dmesg-channel.raw",
			     TEST_DATA) > 0);
	assert_true(strbuf_read_file(&raw, raw_path, 0) > 0);
	agentchan_split(raw.buf, raw.len, &c);
	assert_true(agentchan_dmesg_complete(&c));
	assert_true(c.dmesg_len > 4096);
	f.log = log;
	f.channel_text = raw.buf;
	fake_domain_use(&f);
	proc_set_dry_run(fake_qemu_img, &calls);
	r.image = "/images/root.img";
	r.scenarios = "boot,bpf,cgroups,userfaultfd,mm,kgdb";
	assert_int_equal(boot_run(&r, &o), 0);
	assert_int_equal(o.exit_code, 0);
	assert_string_equal(jsonx_text(scenario(o.record, "boot"), "result"), "pass");
	ch = jsonx_get(jsonx_get(scenario(o.record, "boot"), "host"), "channel");
	assert_true(jsonx_num(ch, "bytes", &num));
	assert_int_equal(num, c.before_len);
	assert_string_equal(jsonx_text(jsonx_get(o.record, "files"), "dmesg"),
			    "dmesg.txt");
	d = jsonx_get(o.record, "dmesg");
	assert_true(jsonx_num(d, "bytes", &num));
	assert_int_equal(num, c.dmesg_len);
	assert_true(jsonx_num(d, "announced", &num));
	assert_int_equal(num, c.dmesg_len);
	assert_true(jsonx_bool(d, "complete", false));
	kept = path_join(fx.run_dir, "channel.log");
	assert_true(strbuf_read_file(&got, kept, 0) > 0);
	assert_int_equal(got.len, c.before_len);
	assert_non_null(strstr(got.buf, "bootproof-agent: channel ok "));
	assert_null(strstr(got.buf, "Linux version"));
	kept_log = path_join(fx.run_dir, "dmesg.txt");
	assert_true(strbuf_read_file(&dmesg, kept_log, 0) > 0);
	assert_int_equal(dmesg.len, c.dmesg_len);
	assert_memory_equal(dmesg.buf, c.dmesg, c.dmesg_len);
	assert_non_null(strstr(dmesg.buf, "Linux version"));
	json_object_put(o.record);
	free(f.xml);

	/* The guest went before all of it arrived: what did is kept, and the
	 * record says it is short. */
	unlink(kept_log);
	strbuf_setlen(&raw, raw.len - 1000);
	f = (struct fake_domain){ .log = log, .end = GUEST_SHUTOFF,
				  .channel_text = raw.buf };
	fake_domain_use(&f);
	assert_int_equal(boot_run(&r, &o), 0);
	d = jsonx_get(o.record, "dmesg");
	assert_true(jsonx_num(d, "bytes", &num));
	assert_int_equal(num, c.dmesg_len - 1000);
	assert_true(jsonx_num(d, "announced", &num));
	assert_int_equal(num, c.dmesg_len);
	assert_false(jsonx_bool(d, "complete", true));
	strbuf_release(&dmesg);
	assert_true(strbuf_read_file(&dmesg, kept_log, 0) > 0);
	assert_int_equal(dmesg.len, c.dmesg_len - 1000);
	json_object_put(o.record);
	free(f.xml);

	/* No log sent (an agent of before, or one that kept it on disk): no
	 * file, no record. */
	unlink(kept_log);
	f = (struct fake_domain){ .log = log, .end = GUEST_SHUTOFF,
				  .channel_text = "bootproof-agent: channel ok 6.1.0-57-amd64\n" };
	fake_domain_use(&f);
	assert_int_equal(boot_run(&r, &o), 0);
	assert_null(jsonx_get(o.record, "dmesg"));
	assert_null(jsonx_text(jsonx_get(o.record, "files"), "dmesg"));
	assert_int_equal(access(kept_log, F_OK), -1);
	json_object_put(o.record);
	free(f.xml);
	proc_set_dry_run(NULL, NULL);
}

/* A real kgdbts run (tests/data/boot/k612-kgdbts.log): the kernel's kgdb
 * self-test failed its hardware breakpoint tests under TCG.  The kgdb
 * scenario fails and says which tests, and the WARNINGs kgdbts raised make
 * the boot PROBLEMS, each with kgdbts in its title. */
static void test_kgdbts_run(void **state)
{
	_cleanup_free_ char *log = NULL;
	struct fake_domain f = { .end = GUEST_SHUTOFF };
	struct boot_request r = boot_fixture_req(&fx, "bootproof-test");
	struct boot_outcome o;
	json_object *p, *kgdb;
	int calls = 0;

	assert_true(asprintf(&log, "%s/boot/k612-kgdbts.log", TEST_DATA) > 0);
	f.log = log;
	fake_domain_use(&f);
	proc_set_dry_run(fake_qemu_img, &calls);
	r.image = "/images/root.img";
	r.scenarios = "kgdb";
	assert_int_equal(boot_run(&r, &o), 0);
	assert_int_equal(o.verdict, VERDICT_PROBLEMS);
	assert_int_equal(o.exit_code, 1);
	kgdb = scenario(o.record, "kgdb");
	assert_non_null(kgdb);
	assert_string_equal(jsonx_text(kgdb, "result"), "fail");
	assert_non_null(strstr(jsonx_text(kgdb, "reason"), "kgdbts"));
	p = json_object_object_get(o.record, "problems");
	assert_int_equal(json_object_array_length(p), 5);
	for (size_t i = 0; i < json_object_array_length(p); i++) {
		json_object *e = json_object_array_get_idx(p, i);

		assert_string_equal(jsonx_text(e, "kind"), "WARNING");
		assert_non_null(strstr(jsonx_text(e, "header"), "drivers/misc/kgdbts.c"));
	}
	assert_non_null(strstr(jsonx_text(o.record, "reason"),
			       "first: WARNING in check_and_rewind_pc"));
	json_object_put(o.record);
	free(f.xml);
	proc_set_dry_run(NULL, NULL);
}

/* The agent's run cut off mid-way (QEMU killed): INFRA, not the kernel's
 * fault, and the scenarios that never reported are errors, not passes. */
static void test_agent_cut(void **state)
{
	_cleanup_free_ char *full = NULL;
	_cleanup_free_ char *log = path_join(fx.dir, "agent-cut.log");
	_cleanup_strbuf_ struct strbuf sb = STRBUF_INIT;
	struct fake_domain f = { .log = log, .end = GUEST_FAILED,
				 .end_reason = "QEMU was killed" };
	struct boot_request r = boot_fixture_req(&fx, "bootproof-test");
	struct boot_outcome o;
	const char *cut;
	int calls = 0;

	assert_true(asprintf(&full, "%s/boot/debian61-agent.log", TEST_DATA) > 0);
	assert_true(strbuf_read_file(&sb, full, 0) > 0);
	cut = strstr(sb.buf, "ok 3 cgroups");
	assert_non_null(cut);
	assert_int_equal(write_file_atomic(log, sb.buf, (size_t)(cut - sb.buf),
					   0644), 0);
	fake_domain_use(&f);
	proc_set_dry_run(fake_qemu_img, &calls);
	r.image = "/images/root.img";
	r.scenarios = "boot,bpf,cgroups,userfaultfd";
	assert_int_equal(boot_run(&r, &o), 0);
	assert_int_equal(o.verdict, VERDICT_INFRA);
	assert_int_equal(o.exit_code, 3);
	assert_non_null(strstr(jsonx_text(o.record, "reason"), "QEMU was killed"));
	assert_string_equal(jsonx_text(scenario(o.record, "bpf"), "result"), "pass");
	assert_string_equal(jsonx_text(scenario(o.record, "cgroups"), "result"),
			    "error");
	assert_string_equal(jsonx_text(scenario(o.record, "userfaultfd"), "result"),
			    "error");
	json_object_put(o.record);
	free(f.xml);
	proc_set_dry_run(NULL, NULL);
}

/* The attempt before the last, as kept in the record. */
static json_object *earlier(json_object *rec, size_t i)
{
	json_object *a;

	assert_true(json_object_object_get_ex(rec, "earlier_attempts", &a));
	assert_true(i < json_object_array_length(a));
	return json_object_array_get_idx(a, i);
}

static void assert_same_file(const char *a_path, const char *b_path)
{
	_cleanup_strbuf_ struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

	assert_true(strbuf_read_file(&a, a_path, 0) >= 0);
	assert_true(strbuf_read_file(&b, b_path, 0) >= 0);
	assert_int_equal(a.len, b.len);
	assert_memory_equal(a.buf, b.buf, a.len);
}

/* QEMU dies by itself mid-boot (a TCG crash): the boot is tried again;
 * the outcome is the second attempt's, the first is kept with its own
 * console log. */
static void test_retry_after_qemu_crash(void **state)
{
	_cleanup_free_ char *good = data("debian61-boot.log");
	_cleanup_free_ char *cut = path_join(fx.dir, "crash.log");
	_cleanup_free_ char *first = path_join(fx.run_dir, "console.attempt1.log");
	const char *s = "[    0.000000] Linux version 6.1.0 (x) #1\r\n";
	struct fake_domain f2 = { .log = good, .end = GUEST_SHUTOFF };
	struct fake_domain f1 = { .log = cut, .end = GUEST_FAILED,
				  .end_reason = "QEMU or libvirt failed while running",
				  .then = &f2 };
	struct boot_request r = boot_fixture_req(&fx, "bootproof-test");
	struct boot_outcome o;
	json_object *e, *files;

	assert_int_equal(write_file_atomic(cut, s, strlen(s), 0644), 0);
	r.retries = 1;
	fake_domain_use(&f1);
	assert_int_equal(boot_run(&r, &o), 0);
	assert_int_equal(f1.started, 1);
	assert_int_equal(f2.started, 1);
	assert_int_equal(f1.freed + f2.freed, 2);
	assert_int_equal(o.verdict, VERDICT_BOOTED);
	assert_int_equal(o.exit_code, 0);
	assert_false(o.retryable);
	e = earlier(o.record, 0);
	assert_string_equal(jsonx_text(e, "verdict"), "INFRA");
	assert_string_equal(jsonx_text(json_object_object_get(e, "end"), "how"),
			    "qemu-failed");
	files = json_object_object_get(e, "files");
	assert_string_equal(jsonx_text(files, "console"), "console.attempt1.log");
	assert_int_equal(json_object_array_length(
				 json_object_object_get(o.record, "earlier_attempts")),
			 1);
	assert_same_file(cut, first);
	assert_log_copied(good);
	json_object_put(o.record);
	free(f1.xml);
	free(f2.xml);
}

/* Every attempt crashes: INFRA after 1 + retries attempts, all kept. */
static void test_retries_exhausted(void **state)
{
	_cleanup_free_ char *cut = path_join(fx.dir, "crash.log");
	_cleanup_free_ char *second = path_join(fx.run_dir, "console.attempt2.log");
	const char *s = "[    0.000000] Linux version 6.1.0 (x) #1\r\n";
	struct fake_domain f = { .log = cut, .end = GUEST_FAILED };
	struct boot_request r = boot_fixture_req(&fx, "bootproof-test");
	struct boot_outcome o;

	assert_int_equal(write_file_atomic(cut, s, strlen(s), 0644), 0);
	r.retries = 2;
	fake_domain_use(&f);
	assert_int_equal(boot_run(&r, &o), 0);
	assert_int_equal(f.started, 3);
	assert_int_equal(o.verdict, VERDICT_INFRA);
	assert_int_equal(o.exit_code, 3);
	assert_true(o.retryable);
	assert_int_equal(json_object_array_length(
				 json_object_object_get(o.record, "earlier_attempts")),
			 2);
	assert_string_equal(jsonx_text(json_object_object_get(earlier(o.record, 1),
							      "files"),
				       "console"),
			    "console.attempt2.log");
	assert_int_equal(access(second, F_OK), 0);
	json_object_put(o.record);
	free(f.xml);
}

/* No retry for what is not QEMU's own failure: a domain destroyed from
 * outside, a kernel panic, or retries 0. */
static void test_no_retry(void **state)
{
	_cleanup_free_ char *panic = data("debian61-noroot-panic.log");
	_cleanup_free_ char *cut = path_join(fx.dir, "crash.log");
	const char *s = "[    0.000000] Linux version 6.1.0 (x) #1\r\n";
	const struct {
		const char *log;
		enum guest_state end;
		unsigned retries;
		enum boot_verdict want;
	} cases[] = {
		{ cut, GUEST_DESTROYED, 3, VERDICT_INFRA },
		{ panic, GUEST_FAILED, 3, VERDICT_PANIC },
		{ cut, GUEST_FAILED, 0, VERDICT_INFRA },
	};

	assert_int_equal(write_file_atomic(cut, s, strlen(s), 0644), 0);
	for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
		struct fake_domain f = { .log = cases[i].log, .end = cases[i].end };
		struct boot_request r = boot_fixture_req(&fx, "bootproof-test");
		struct boot_outcome o;

		r.retries = cases[i].retries;
		fake_domain_use(&f);
		assert_int_equal(boot_run(&r, &o), 0);
		assert_int_equal(f.started, 1);
		assert_int_equal(o.verdict, cases[i].want);
		assert_null(json_object_object_get(o.record, "earlier_attempts"));
		json_object_put(o.record);
		free(f.xml);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_boot),
		cmocka_unit_test(test_console_readback),
		cmocka_unit_test(test_retry_after_qemu_crash),
		cmocka_unit_test(test_retries_exhausted),
		cmocka_unit_test(test_no_retry),
		cmocka_unit_test(test_panic_any_chunking),
		cmocka_unit_test(test_pvpanic_event),
		cmocka_unit_test(test_hung),
		cmocka_unit_test(test_start_fails),
		cmocka_unit_test(test_libvirt_lost),
		cmocka_unit_test(test_interrupted),
		cmocka_unit_test(test_cmdline),
		cmocka_unit_test(test_agent_run),
		cmocka_unit_test(test_channel),
		cmocka_unit_test(test_channel_dmesg),
		cmocka_unit_test(test_stage_held),
		cmocka_unit_test(test_kgdbts_run),
		cmocka_unit_test(test_agent_cut),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
