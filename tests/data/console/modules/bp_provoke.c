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
#include <linux/gfp.h>
#include <linux/kthread.h>
#include <linux/lockdep.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/rwsem.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timer.h>

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

static struct lock_class_key unbalanced_key;
static struct lockdep_map unbalanced_map =
	STATIC_LOCKDEP_MAP_INIT("bp_provoke_unbalanced", &unbalanced_key);

/* A release with no acquire: bad unlock balance. */
static void bad_unlock(void)
{
	lock_map_release(&unbalanced_map);
}

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
