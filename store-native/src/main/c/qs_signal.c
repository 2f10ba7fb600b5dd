/*
 * qs_signal.c - installing the fault handler next to HotSpot (design-notes section 3).
 *
 * Two supported configurations:
 *  1. Interposition (default): after the JVM is up, sigaction(SIGSEGV/SIGBUS) installs qs_on_signal
 *     with the old flags plus SA_SIGINFO|SA_RESTART|SA_NODEFER and saves the complete old struct
 *     sigaction. Faults outside every arena are forwarded to the saved action exactly like HotSpot's
 *     call_chained_handler: SA_SIGINFO vs sa_handler, the saved sa_mask (added to the current mask,
 *     plus the signal itself unless SA_NODEFER), SA_RESETHAND. HotSpot relies on these faults for
 *     implicit null checks, safepoint polls and stack banging.
 *  2. LD_PRELOAD=$JAVA_HOME/lib/libjsig.so: our sigaction() call is intercepted by libjsig, which
 *     records qs_on_signal as the chained handler; HotSpot's handler runs first and calls ours for
 *     faults it does not recognise. The "old" action libjsig hands back is then the previously
 *     chained user handler (usually SIG_DFL).
 * qs_signal_mode() tells which one is active (the kernel's current handler is ours, or not).
 *
 * SA_NODEFER: a bug inside our handler then re-enters the chain and the JVM writes hs_err instead
 * of the process dying silently. A forwarded fault whose saved action is SIG_DFL or SIG_IGN (no JVM,
 * e.g. a C test, or the libjsig case) resets the disposition to SIG_DFL and returns, so the
 * re-executed instruction takes the default action (under libjsig HotSpot then reports the fatal
 * error itself); ignoring a synchronous SIGSEGV would loop forever.
 *
 * install/uninstall are idempotent and serialised by a mutex (control plane only). The handler
 * preserves errno.
 */
#include "qs_arena.h"
#include "qs_export.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

static pthread_mutex_t install_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sigaction saved_segv, saved_bus;
static _Atomic int installed;
static _Atomic uint64_t forwarded;

static struct sigaction *saved_for(int sig) { return sig == SIGBUS ? &saved_bus : &saved_segv; }

/* call_chained_handler equivalent [signal-safe] */
static void forward(int sig, siginfo_t *info, void *uc) {
    atomic_fetch_add_explicit(&forwarded, 1, memory_order_relaxed);
    struct sigaction *act = saved_for(sig);
    if (!(act->sa_flags & SA_SIGINFO) && (act->sa_handler == SIG_DFL || act->sa_handler == SIG_IGN)) {
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigemptyset(&dfl.sa_mask);
        sigaction(sig, &dfl, NULL);
        return; /* the faulting instruction re-executes and takes the default action */
    }
    sigset_t mask, old;
    memcpy(&mask, &act->sa_mask, sizeof mask);
    if (!(act->sa_flags & SA_NODEFER)) sigaddset(&mask, sig);
    pthread_sigmask(SIG_BLOCK, &mask, &old);
    if (act->sa_flags & SA_SIGINFO) {
        void (*h)(int, siginfo_t *, void *) = act->sa_sigaction;
        if (act->sa_flags & SA_RESETHAND) act->sa_handler = SIG_DFL;
        h(sig, info, uc);
    } else {
        void (*h)(int) = act->sa_handler;
        if (act->sa_flags & SA_RESETHAND) act->sa_handler = SIG_DFL;
        h(sig);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static void qs_on_signal(int sig, siginfo_t *info, void *ucv) {
    int saved_errno = errno;
    int handled = 0;
    /* Only access faults on a mapped page can be ours (PROT_NONE arena frames). */
    if (info != NULL && ((sig == SIGSEGV && info->si_code == SEGV_ACCERR) || sig == SIGBUS)) {
        ucontext_t *uc = ucv;
        int is_write = (uc->uc_mcontext.gregs[REG_ERR] & 0x2) != 0; /* x86 page-fault error code W bit */
        handled = qs_handle_fault(sig, info->si_addr, is_write);
    }
    if (!handled) forward(sig, info, ucv);
    errno = saved_errno;
}

static int install_one(int sig, struct sigaction *save) {
    struct sigaction old, act;
    if (sigaction(sig, NULL, &old) != 0) return -errno;
    memset(&act, 0, sizeof act);
    act.sa_sigaction = qs_on_signal;
    act.sa_flags = (old.sa_flags & ~SA_RESETHAND) | SA_SIGINFO | SA_RESTART | SA_NODEFER;
    sigemptyset(&act.sa_mask);
    if (sigaction(sig, &act, save) != 0) return -errno;
    return 0;
}

/* Installs the handler for SIGSEGV and SIGBUS. Idempotent. Returns 0, or -errno. */
QS_EXPORT int qs_signal_install(void) {
    pthread_mutex_lock(&install_lock);
    int rc = 0;
    if (!atomic_load(&installed)) {
        rc = install_one(SIGSEGV, &saved_segv);
        if (rc == 0) {
            rc = install_one(SIGBUS, &saved_bus);
            if (rc != 0) sigaction(SIGSEGV, &saved_segv, NULL);
        }
        if (rc == 0) atomic_store(&installed, 1);
    }
    pthread_mutex_unlock(&install_lock);
    return rc;
}

/* Restores the saved actions if the kernel's current action is still ours (otherwise someone chained
 * after us and we stay in place, forwarding). Idempotent. Returns 1 if restored, 0 if not installed
 * or left in place. */
QS_EXPORT int qs_signal_uninstall(void) {
    pthread_mutex_lock(&install_lock);
    int rc = 0;
    if (atomic_load(&installed)) {
        struct sigaction cur;
        sigaction(SIGSEGV, NULL, &cur);
        if ((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == qs_on_signal) {
            sigaction(SIGSEGV, &saved_segv, NULL);
            sigaction(SIGBUS, &saved_bus, NULL);
            atomic_store(&installed, 0);
            rc = 1;
        }
    }
    pthread_mutex_unlock(&install_lock);
    return rc;
}

/* 0 = not installed, 1 = interposed (the kernel runs our handler first), 2 = chained behind another
 * handler (e.g. HotSpot with libjsig preloaded). Asks the kernel directly, bypassing libjsig. */
QS_EXPORT int qs_signal_mode(void) {
    if (!atomic_load(&installed)) return 0;
    struct { void *handler; unsigned long flags; void *restorer; uint64_t mask; } k;
    if (syscall(SYS_rt_sigaction, SIGSEGV, NULL, &k, 8) != 0) return -errno;
    return k.handler == (void *)qs_on_signal ? 1 : 2;
}

QS_EXPORT uint64_t qs_signal_forwarded(void) { return atomic_load(&forwarded); }
