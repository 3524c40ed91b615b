// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bp_provoke: make a debug kernel print one kind of report, for the golden
 * console logs in tests/data/console (record.sh loads it with
 * `insmod bp_provoke.ko what=NAME`).  Each case does for real what the
 * report is about (a lock order inversion, a leak, a sleep in atomic
 * context...), small enough that the kernel goes on and the guest can
 * power off.  A test fixture only: never part of bootproof's guest.
 */
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/fs.h>
#include <linux/gfp.h>
#include <linux/kthread.h>
#include <linux/lockdep.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/namei.h>
#include <linux/netdevice.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/reboot.h>
#include <linux/rwsem.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timer.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

static char *what = "";
module_param(what, charp, 0444);
MODULE_PARM_DESC(what, "the report to provoke (see cases[])");

static DEFINE_MUTEX(lock_a);
static DEFINE_MUTEX(lock_b);
static DECLARE_RWSEM(sem);
static DEFINE_SPINLOCK(bh_lock);

/* A then B, later B then A: a possible circular locking dependency
 * (nothing deadlocks: one thread, one order at a time). */
static void abba(void)
{
	mutex_lock(&lock_a);
	mutex_lock(&lock_b);
	mutex_unlock(&lock_b);
	mutex_unlock(&lock_a);

	mutex_lock(&lock_b);
	mutex_lock(&lock_a);
	mutex_unlock(&lock_a);
	mutex_unlock(&lock_b);
}

/* A read lock taken twice: possible recursive locking (no writer waits,
 * so it does not deadlock). */
static void recursive(void)
{
	down_read(&sem);
	down_read(&sem);
	up_read(&sem);
	up_read(&sem);
}

static struct timer_list bh_timer;

static void bh_timer_fn(struct timer_list *t)
{
	spin_lock(&bh_lock);
	spin_unlock(&bh_lock);
}

/* bh_lock taken with softirqs on, then in a timer (softirq): inconsistent
 * lock state {SOFTIRQ-ON-W} -> {IN-SOFTIRQ-W}. */
static void inconsistent(void)
{
	spin_lock(&bh_lock);
	spin_unlock(&bh_lock);
	timer_setup(&bh_timer, bh_timer_fn, 0);
	mod_timer(&bh_timer, jiffies + 1);
	msleep(100);
	del_timer_sync(&bh_timer);
}

/* A release with no acquire: bad unlock balance.  A lockdep map exists
 * only on kernels with lock debugging; elsewhere the case does nothing. */
#ifdef CONFIG_DEBUG_LOCK_ALLOC
static struct lock_class_key unbalanced_key;
static struct lockdep_map unbalanced_map =
	STATIC_LOCKDEP_MAP_INIT("bp_provoke_unbalanced", &unbalanced_key);

static void bad_unlock(void)
{
	lock_map_release(&unbalanced_map);
}
#else
static void bad_unlock(void)
{
	pr_info("bp_provoke: bad_unlock needs CONFIG_DEBUG_LOCK_ALLOC\n");
}
#endif

struct holder {
	struct mutex m;
};

/* A held mutex freed with its memory: held lock freed. */
static void held_freed(void)
{
	struct holder *h = kmalloc(sizeof(*h), GFP_KERNEL);

	if (!h)
		return;
	mutex_init(&h->m);
	mutex_lock(&h->m);
	kfree(h);
}

static int exit_held_fn(void *unused)
{
	mutex_lock(&lock_a);
	return 0; /* exits holding lock_a */
}

/* A kernel thread that exits holding a lock: still has locks held. */
static void exit_held(void)
{
	kthread_run(exit_held_fn, NULL, "bp_provoke_exit");
	msleep(500);
}

/* insmod returns to user space holding lock_b: lock held when returning
 * to user space. */
static void user_held(void)
{
	mutex_lock(&lock_b);
}

struct rcu_thing {
	int v;
};
static struct rcu_thing __rcu *rcu_ptr;

/* rcu_dereference() outside any read-side section: suspicious RCU usage. */
static void rcu(void)
{
	static struct rcu_thing thing = { .v = 1 };
	struct rcu_thing *p;

	rcu_assign_pointer(rcu_ptr, &thing);
	p = rcu_dereference(rcu_ptr);
	pr_info("bp_provoke: rcu value %d\n", p->v);
}

struct nonstatic {
	spinlock_t l;
};

/* A spinlock in allocated memory never initialised: lockdep has no
 * static key for it ("trying to register non-static key"). */
static void nonstatic(void)
{
	struct nonstatic *n = kzalloc(sizeof(*n), GFP_KERNEL);

	if (!n)
		return;
	spin_lock(&n->l);
	spin_unlock(&n->l);
	kfree(n);
}

/* Three leaks of different sizes; the pointers are dropped. */
static noinline void *leak_one(size_t size)
{
	return kmalloc(size, GFP_KERNEL);
}

static void kmemleak(void)
{
	void *p[3];

	p[0] = leak_one(64);
	p[1] = leak_one(256);
	p[2] = leak_one(1024);
	pr_info("bp_provoke: leaked 3 objects\n");
	memzero_explicit(p, sizeof(p));
}

static void odebug_timer_fn(struct timer_list *t)
{
}

/* Memory freed with a pending timer in it: ODEBUG free active. */
static void odebug(void)
{
	struct timer_list *t = kmalloc(sizeof(*t), GFP_KERNEL);

	if (!t)
		return;
	timer_setup(t, odebug_timer_fn, 0);
	mod_timer(t, jiffies + 100 * HZ);
	kfree(t);
}

/* A GFP_KERNEL allocation under a spinlock: sleeping function called
 * from invalid context. */
static void sleep_atomic(void)
{
	void *p;

	spin_lock(&bh_lock);
	p = kmalloc(32, GFP_KERNEL);
	spin_unlock(&bh_lock);
	kfree(p);
}

/* schedule() with preemption off: scheduling while atomic. */
static void sched_atomic(void)
{
	preempt_disable();
	set_current_state(TASK_UNINTERRUPTIBLE);
	schedule_timeout(1);
	preempt_enable();
}

/* smp_processor_id() where the task can migrate. */
static void smp_id(void)
{
	pr_info("bp_provoke: on cpu %d\n", smp_processor_id());
}

/* A page freed with a mapping still set: Bad page state. */
static void bad_page(void)
{
	struct page *pg = alloc_page(GFP_KERNEL);

	if (!pg)
		return;
	pg->mapping = (struct address_space *)0x100;
	__free_page(pg);
}

static int racy_counter;

static int race_fn(void *done)
{
	for (int i = 0; i < 200000; i++) {
		racy_counter++;	/* plain read-modify-write, on purpose */
		cpu_relax();
	}
	complete(done);
	return 0;
}

/* Two threads incrementing one plain int: a KCSAN data-race report. */
static void race(void)
{
	DECLARE_COMPLETION_ONSTACK(a);
	DECLARE_COMPLETION_ONSTACK(b);

	kthread_run(race_fn, &a, "bp_race_a");
	kthread_run(race_fn, &b, "bp_race_b");
	wait_for_completion(&a);
	wait_for_completion(&b);
	pr_info("bp_provoke: counter %d\n", racy_counter);
}

/* A lock taken with a subclass lockdep has no room for: lockdep's own
 * "BUG: looking up invalid subclass", and lockdep turns itself off. */
static void subclass(void)
{
	spin_lock_nested(&bh_lock, MAX_LOCKDEP_SUBCLASSES);
	spin_unlock(&bh_lock);
}

/* A network device unregistered while a reference is still held: the
 * kernel waits, printing "unregister_netdevice: waiting for ... to become
 * free" every 10 s, until the reference is dropped 15 s later. */
static struct net_device *leak_dev;

static void netdev_put_late(struct work_struct *w)
{
	dev_put(leak_dev);
}
static DECLARE_DELAYED_WORK(netdev_put_work, netdev_put_late);

static int netdev_unregister_fn(void *unused)
{
	unregister_netdev(leak_dev);
	free_netdev(leak_dev);
	pr_info("bp_provoke: netdev freed\n");
	return 0;
}

static const struct net_device_ops leak_ops;

static void netdev_leak(void)
{
	leak_dev = alloc_etherdev(0);
	if (!leak_dev)
		return;
	leak_dev->netdev_ops = &leak_ops;
	strscpy(leak_dev->name, "bpleak%d", IFNAMSIZ);
	eth_hw_addr_random(leak_dev);
	if (register_netdev(leak_dev)) {
		free_netdev(leak_dev);
		return;
	}
	dev_hold(leak_dev);
	schedule_delayed_work(&netdev_put_work, 15 * HZ);
	kthread_run(netdev_unregister_fn, NULL, "bp_unregister");
}

/* An inode reference kept past umount of the file system /init mounted at
 * /bpfs (a file /bpfs/f): "VFS: Busy inodes after unmount". */
static void busy_inodes(void)
{
	struct path path;

	if (kern_path("/bpfs/f", 0, &path)) {
		pr_err("bp_provoke: no /bpfs/f\n");
		return;
	}
	ihold(d_inode(path.dentry));
	path_put(&path);
}

/* Two CPUs warning at the same moment: their reports interleave. */
static atomic_t warn_ready = ATOMIC_INIT(0);

static int warn_fn(void *done)
{
	atomic_inc(&warn_ready);
	while (atomic_read(&warn_ready) < 2)
		cpu_relax();
	WARN(1, "bp_provoke: warning on cpu %d\n", raw_smp_processor_id());
	complete(done);
	return 0;
}

static void interleave(void)
{
	DECLARE_COMPLETION_ONSTACK(a);
	DECLARE_COMPLETION_ONSTACK(b);
	struct task_struct *ta, *tb;

	ta = kthread_create(warn_fn, &a, "bp_warn_a");
	tb = kthread_create(warn_fn, &b, "bp_warn_b");
	if (IS_ERR(ta) || IS_ERR(tb))
		return;
	kthread_bind(ta, 0);
	kthread_bind(tb, 1);
	wake_up_process(ta);
	wake_up_process(tb);
	wait_for_completion(&a);
	wait_for_completion(&b);
}

/* A report cut off by a reset: one CPU warns, the other resets the machine
 * while the report is still being printed. */
static atomic_t cut_started = ATOMIC_INIT(0);

static int cut_reset_fn(void *unused)
{
	while (!atomic_read(&cut_started))
		cpu_relax();
	mdelay(2);
	emergency_restart();
	return 0;
}

static void cut(void)
{
	struct task_struct *t;

	migrate_disable();
	t = kthread_create(cut_reset_fn, NULL, "bp_reset");
	if (!IS_ERR(t)) {
		kthread_bind(t, !raw_smp_processor_id());
		wake_up_process(t);
		atomic_set(&cut_started, 1);
		WARN(1, "bp_provoke: a report cut short\n");
	}
	migrate_enable();
}

/* A branch on heap memory nobody wrote: a KMSAN uninit-value report. */
static noinline int uninit_value(const int *p)
{
	return *p;
}

static void uninit(void)
{
	int *p = kmalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		return;
	if (uninit_value(p))
		pr_info("bp_provoke: nonzero\n");
	else
		pr_info("bp_provoke: zero\n");
	kfree(p);
}

/* A page fault whose exception frame cannot be pushed: the stack pointer
 * is moved to the guard page after a vmalloc area, the push faults, and
 * delivering that #PF faults again, so the CPU raises #DF.  The guard page
 * is not the task's stack guard, so the kernel prints its plain
 * "PANIC: double fault" report, not a stack overflow. */
static void double_fault(void)
{
#ifdef CONFIG_X86_64
	char *p = vmalloc(PAGE_SIZE);

	if (!p)
		return;
	local_irq_disable();
	asm volatile("movq %0, %%rsp\n\tpushq $0"
		     : : "r"((unsigned long)p + 2 * PAGE_SIZE) : "memory");
#else
	pr_info("bp_provoke: double_fault is x86_64 only\n");
#endif
}

static const struct {
	const char *name;
	void (*fn)(void);
} cases[] = {
	{ "abba", abba },
	{ "recursive", recursive },
	{ "inconsistent", inconsistent },
	{ "bad_unlock", bad_unlock },
	{ "held_freed", held_freed },
	{ "exit_held", exit_held },
	{ "user_held", user_held },
	{ "rcu", rcu },
	{ "nonstatic", nonstatic },
	{ "kmemleak", kmemleak },
	{ "odebug", odebug },
	{ "sleep_atomic", sleep_atomic },
	{ "sched_atomic", sched_atomic },
	{ "smp_id", smp_id },
	{ "bad_page", bad_page },
	{ "race", race },
	{ "subclass", subclass },
	{ "netdev_leak", netdev_leak },
	{ "busy_inodes", busy_inodes },
	{ "interleave", interleave },
	{ "cut", cut },
	{ "uninit", uninit },
	{ "double_fault", double_fault },
};

static int __init bp_provoke_init(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		if (!strcmp(what, cases[i].name)) {
			pr_info("bp_provoke: %s\n", what);
			cases[i].fn();
			pr_info("bp_provoke: %s done\n", what);
			return 0;
		}
	}
	pr_err("bp_provoke: unknown case '%s'\n", what);
	return -EINVAL;
}

static void __exit bp_provoke_exit(void)
{
}

module_init(bp_provoke_init);
module_exit(bp_provoke_exit);
MODULE_DESCRIPTION("Provoke kernel debug reports for golden console logs");
MODULE_LICENSE("GPL");
