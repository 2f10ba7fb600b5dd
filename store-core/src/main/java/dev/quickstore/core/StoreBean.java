package dev.quickstore.core;

import dev.quickstore.core.error.StoreException;
import dev.quickstore.core.stats.CommitStats;
import dev.quickstore.core.stats.PoolStats;
import dev.quickstore.core.stats.StoreMXBean;
import dev.quickstore.core.stats.StoreStats;
import dev.quickstore.mmu.FaultCounters;
import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.Collections;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * An open store's {@link StoreMXBean} in the platform MBean server (the JDK's own management interface, JSR 3 /
 * JMX; docs/observability.md): registered when a store has opened ({@link #register}), unregistered when it
 * closes ({@link #unregister}), so that JConsole, {@code jcmd} and {@code qs stats --pid} see exactly the stores
 * open in a process. The set of open stores is also what the periodic JFR event reports ({@link
 * PeriodicCounters}). Every getter takes the store latch and answers {@code IllegalStateException} once the
 * store is closed (a remote proxy may outlive it).
 *
 * <p>The registration runs on one daemon thread per JVM ({@code qs-management}), not in the opening thread:
 * the first use of the platform MBean server builds it with the JVM's own beans, which costs a noticeable part
 * of a second (docs/observability.md), and a store's open should not wait for a management view nobody may
 * read. A store closed before its turn came is never registered.
 */
final class StoreBean implements StoreMXBean {
    /** The domain and type of every store's name: {@code dev.quickstore:type=Store,name="<dir>"}. */
    static final String DOMAIN_TYPE = "dev.quickstore:type=Store";

    private static final Set<StoreBean> OPEN = ConcurrentHashMap.newKeySet();
    private static final FaultCounters NO_FAULTS =
            new FaultCounters(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    /** Registers beans off the opening threads (one daemon thread, started with the first store). */
    private static final ExecutorService MANAGEMENT = Executors.newSingleThreadExecutor(
            r -> Thread.ofPlatform().daemon().name("qs-management").unstarted(r));

    private final Store store;
    private final String directory;
    private ObjectName name; // guarded by this: set once registered
    private boolean closed; // guarded by this

    private StoreBean(Store store) {
        this.store = store;
        this.directory = store.dir.toAbsolutePath().normalize().toString();
    }

    /**
     * Registers {@code store}'s bean in the background (and the periodic JFR hook, once per JVM); the store is
     * in {@link #open} at once.
     */
    static StoreBean register(Store store) {
        StoreBean bean = new StoreBean(store);
        OPEN.add(bean);
        MANAGEMENT.execute(bean::registerNow);
        PeriodicCounters.install(MANAGEMENT);
        return bean;
    }

    /**
     * On the management thread: the bean under {@code dev.quickstore:type=Store,name="<dir>"}, or with {@code
     * ,handle=N} if another handle has that name (two clients of one server in a JVM). A refusal of the MBean
     * server (a bug: the interface is a valid MXBean) is reported on standard error; the store works on.
     */
    private void registerNow() {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer(); // slow the first time: not under the lock
        synchronized (this) {
            if (closed) {
                return;
            }
            String base = DOMAIN_TYPE + ",name=" + ObjectName.quote(directory);
            try {
                for (int handle = 1; name == null; handle++) {
                    ObjectName n = new ObjectName(handle == 1 ? base : base + ",handle=" + handle);
                    try {
                        server.registerMBean(this, n);
                        name = n;
                    } catch (InstanceAlreadyExistsException e) {
                        // another handle with this name: try the next number
                    }
                }
            } catch (JMException e) {
                System.err.println("qs: store " + directory + ": registering its MBean failed: " + e);
            }
        }
    }

    /** Removes the bean (the store is closing); idempotent. */
    void unregister() {
        OPEN.remove(this);
        synchronized (this) {
            closed = true;
            if (name == null) {
                return; // not registered yet: it never will be
            }
            try {
                ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
            } catch (InstanceNotFoundException e) {
                // already gone
            } catch (JMException e) {
                throw new StoreException(
                        "store " + directory + ": unregistering its MBean " + name + " failed: " + e, e);
            }
        }
    }

    /**
     * Waits until the bean is registered (tests, and a process that wants to be read at once): its name, or
     * null if the store closed first or {@code wait} passed.
     */
    static ObjectName awaitRegistered(Store store, java.time.Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (System.nanoTime() < deadline) {
            for (StoreBean b : OPEN) {
                if (b.store == store) {
                    synchronized (b) {
                        if (b.name != null) {
                            return b.name;
                        }
                    }
                }
            }
            Thread.sleep(5);
        }
        return null;
    }

    /** The beans of the stores open in this JVM now. */
    static Collection<StoreBean> open() {
        return Collections.unmodifiableSet(OPEN);
    }

    /** Takes {@code read} under the store latch; null if the latch is not free within {@code waitMs} (0: wait). */
    <T> T read(Function<Store, T> read, long waitMs) {
        boolean locked;
        if (waitMs <= 0) {
            store.latch.lock();
            locked = true;
        } else {
            try {
                locked = store.latch.tryLock(waitMs, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        if (!locked) {
            return null;
        }
        try {
            if (store.isClosed()) {
                throw new IllegalStateException("store " + directory + " is closed");
            }
            return read.apply(store);
        } finally {
            store.latch.unlock();
        }
    }

    private <T> T read(Function<Store, T> read) {
        return read(read, 0);
    }

    /** The fault counters, zeros without an application view (latch held). */
    static FaultCounters faults(Store s) {
        FaultCounters c = s.faultCounters();
        return c == null ? NO_FAULTS : c;
    }

    @Override
    public String getDirectory() {
        return directory;
    }

    @Override
    public boolean isClient() {
        return store.isClient();
    }

    @Override
    public StoreStats getStoreStats() {
        return read(Store::stats);
    }

    @Override
    public PoolStats getPoolStats() {
        return read(Store::poolStats);
    }

    @Override
    public CommitStats getCommitStats() {
        return read(Store::commitStats);
    }

    @Override
    public FaultCounters getFaultCounters() {
        return read(StoreBean::faults);
    }

    @Override
    public long getCommits() {
        return read(s -> s.commitStats().commits());
    }

    @Override
    public long getAborts() {
        return read(s -> s.txns.aborts());
    }

    @Override
    public long getPageReads() {
        return read(s -> s.pool.reads);
    }

    @Override
    public long getPageWrites() {
        return read(s -> s.pool.writes);
    }

    @Override
    public long getReadFaults() {
        return read(s -> faults(s).readFaults());
    }

    @Override
    public long getWriteFaults() {
        return read(s -> faults(s).writeFaults());
    }

    @Override
    public long getRefusedFaults() {
        return read(s -> faults(s).refusals());
    }

    @Override
    public long getEvictions() {
        return read(s -> s.poolStats().evictions());
    }

    @Override
    public long getCheckpoints() {
        return read(s -> s.stats().checkpoints());
    }

    @Override
    public long getLogBytes() {
        return read(s -> s.txns.redoBytes());
    }

    @Override
    public int getPoolFramesUsed() {
        return read(s -> s.poolStats().resident());
    }

    @Override
    public int getPoolFramesFree() {
        return read(s -> {
            PoolStats p = s.poolStats();
            return Math.max(0, p.capacity() - p.resident());
        });
    }
}
