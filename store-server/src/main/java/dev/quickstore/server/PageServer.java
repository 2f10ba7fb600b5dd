package dev.quickstore.server;

import dev.quickstore.core.ServedStore;
import dev.quickstore.core.Store;
import dev.quickstore.core.error.StoreException;
import dev.quickstore.core.options.FramesMode;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.remote.CommitMessages;
import dev.quickstore.core.remote.ServerSecret;
import dev.quickstore.core.remote.SessionFrame;
import dev.quickstore.core.remote.TransactionConflictException;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The page server: one process that owns a store directory (its volume, log, recovery and buffer pool, the
 * embedded {@link Store} unchanged) and serves its committed pages to authenticated client processes over
 * TCP, QuickStore's client-server shape on the EXODUS storage manager (White and DeWitt 1994, sections 1 and
 * 4.4; Carey et al. 1986 for ESM's page-shipping server). Networking is Netty: one acceptor thread and I/O
 * threads (two per core, Netty's default) that also answer page reads (see {@link SessionHandler}).
 *
 * <p>What it serves: sessions (HELLO/CHALLENGE/PROOF/WELCOME, a control and a data connection per client), page
 * requests answered from the committed state, and client transactions under one of two concurrency controls -
 * optimistic (backward validation at commit, page-grained, with callbacks: {@link Sessions} invalidates other
 * clients' cached copies) or ESM-style page locking ({@link PageLocks}, locks taken by the clients' fault
 * paths). Commits are applied in groups on one commit thread, one log force per group.
 *
 * <p>Security: binds where it is told (loopback by default in {@code qs serve}); a client must prove it knows
 * the store's secret ({@link ServerSecret}) before any page is served; at most {@link #maxClients()}
 * connections; a connection that has not authenticated within {@link #handshakeTimeoutMs()} is closed.
 * Progress and errors go to the log stream, one line each.
 */
public final class PageServer implements AutoCloseable {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

    private final Path dir;
    /** The store whose committed pages are served (a replica's may be replaced by an installed snapshot). */
    private final java.util.function.Supplier<Store> stores;
    /** Whether {@link #close()} closes the store (a replica's belongs to its state machine). */
    private final boolean ownsStore;

    private final CommitPath commits;
    private final ServerSecret secret;
    private final PrintStream log;
    private final int pageSize;
    private final long arenaBase;
    private final UUID storeId;
    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final ChannelGroup channels = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private final AtomicInteger connections = new AtomicInteger();
    private final Sessions sessions = new Sessions();
    private final AtomicLong pagesServed = new AtomicLong();
    private final AtomicLong commitsAnswered = new AtomicLong();
    private final AtomicLong conflicts = new AtomicLong();
    private final AtomicLong invalidationsSent = new AtomicLong();
    private final AtomicLong readNanos = new AtomicLong();
    private final int maxClients;
    private final int handshakeTimeoutMs;
    private final int leaseMs;
    private final boolean locking;
    private final int lockWaitMs;
    private final PageLocks locks = new PageLocks();
    private final java.util.concurrent.ExecutorService lockWaiters =
            java.util.concurrent.Executors.newCachedThreadPool(r -> {
                Thread t = new Thread(r, "qs-lock-wait");
                t.setDaemon(true);
                return t;
            });
    private Channel listener;
    private InetSocketAddress address;
    private volatile boolean closed;

    private PageServer(
            Path dir,
            java.util.function.Supplier<Store> stores,
            boolean ownsStore,
            java.util.function.Function<PageServer, CommitPath> commitPath,
            ServerSecret secret,
            PrintStream log,
            int maxClients,
            int handshakeMs,
            int leaseMs,
            boolean locking,
            int lockWaitMs) {
        this.dir = dir;
        this.stores = stores;
        this.ownsStore = ownsStore;
        this.secret = secret;
        this.log = log;
        Store store = stores.get();
        this.pageSize = store.pageSize();
        this.arenaBase = store.arenaBase();
        this.storeId = store.creationId();
        this.maxClients = maxClients;
        this.handshakeTimeoutMs = handshakeMs;
        this.leaseMs = leaseMs;
        this.locking = locking;
        this.lockWaitMs = lockWaitMs;
        this.boss = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        this.workers = new MultiThreadIoEventLoopGroup(0, NioIoHandler.newFactory());
        this.commits = commitPath.apply(this);
    }

    private Store store() {
        return stores.get();
    }

    /**
     * Opens the store in {@code dir} (running recovery if needed), creates its secret if it has none, and
     * listens on {@code listen} (port 0: an ephemeral port, see {@link #address()}).
     */
    public static PageServer start(Path dir, InetSocketAddress listen, PrintStream log) throws IOException {
        return start(dir, listen, log, DEFAULT_LEASE_MS);
    }

    /** The lease of a client session unless told otherwise: 10 s without a frame ends it. */
    public static final int DEFAULT_LEASE_MS = 10_000;

    /**
     * As {@link #start(Path, InetSocketAddress, PrintStream)}, with the lease: a client whose control connection
     * sends nothing (its heartbeats come every third of it) for {@code leaseMs} loses its session, its callbacks
     * and its data connection.
     */
    public static PageServer start(Path dir, InetSocketAddress listen, PrintStream log, int leaseMs)
            throws IOException {
        return start(dir, listen, log, leaseMs, false, DEFAULT_LOCK_WAIT_MS);
    }

    /** How long a page lock request may wait for other sessions' locks unless told otherwise. */
    public static final int DEFAULT_LOCK_WAIT_MS = 2000;

    /**
     * The full form: {@code locking} selects ESM-style page locking (strict two-phase locking from the
     * clients' fault paths, deadlocks refused, waits bounded by {@code lockWaitMs}, which must stay below the
     * clients' request timeout) instead of optimistic validation with callbacks.
     */
    public static PageServer start(
            Path dir, InetSocketAddress listen, PrintStream log, int leaseMs, boolean locking, int lockWaitMs)
            throws IOException {
        if (lockWaitMs < 1) {
            throw new IllegalArgumentException("lock wait of " + lockWaitMs + " ms: at least 1");
        }
        if (leaseMs < 30) {
            throw new IllegalArgumentException("lease of " + leaseMs + " ms: at least 30");
        }
        ServerSecret secret = ServerSecret.loadOrCreate(dir);
        Store store = Store.open(
                dir, StoreOptions.builder().frames(FramesMode.EXPLICIT).build());
        PageServer s = null;
        try {
            s = new PageServer(
                    dir,
                    () -> store,
                    true,
                    server -> new GroupCommitPath(store, server::log),
                    secret,
                    log,
                    256,
                    10_000,
                    leaseMs,
                    locking,
                    lockWaitMs);
            s.bind(listen);
            return s;
        } catch (IOException | RuntimeException e) {
            if (s != null) {
                s.close();
            } else {
                store.close();
            }
            throw e;
        }
    }

    /**
     * A page server over a store it does not own and a commit path of the caller's (a replica of a Raft group:
     * store-replication): optimistic concurrency control only, the store is not closed by {@link #close()}, and
     * the path's {@link CommitPath#refusal()} decides whether clients are accepted. {@code store} is read at
     * every use (a replica's store may be replaced when a snapshot is installed).
     */
    public static PageServer start(
            Path dir,
            java.util.function.Supplier<Store> store,
            ServerSecret secret,
            InetSocketAddress listen,
            PrintStream log,
            int leaseMs,
            java.util.function.Function<PageServer, CommitPath> commitPath)
            throws IOException {
        if (leaseMs < 30) {
            throw new IllegalArgumentException("lease of " + leaseMs + " ms: at least 30");
        }
        PageServer s = new PageServer(
                dir, store, false, commitPath, secret, log, 256, 10_000, leaseMs, false, DEFAULT_LOCK_WAIT_MS);
        try {
            s.bind(listen);
            return s;
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    /** Why this server refuses clients now (null: it accepts them); see {@link CommitPath#refusal()}. */
    String refusal() {
        return commits.refusal();
    }

    /**
     * Closes every client connection (their sessions and callbacks end with them): what a replica does when
     * it stops being the leader, so that its clients reconnect to the new one instead of reading pages that a
     * newer leader may have changed.
     */
    public void endSessions(String why) {
        if (sessions.size() > 0) {
            log("ending " + sessions.size() + " session(s): " + why);
        }
        channels.close();
    }

    private void bind(InetSocketAddress listen) throws IOException {
        ServerBootstrap b = new ServerBootstrap()
                .group(boss, workers)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        channels.add(ch);
                        ch.pipeline().addLast(new FrameDecoder(), new SessionHandler(PageServer.this));
                    }
                });
        try {
            listener = b.bind(listen).sync().channel();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while binding " + listen, e);
        } catch (Exception e) {
            throw new IOException("cannot listen on " + listen.getHostString() + ":" + listen.getPort() + ": " + e, e);
        }
        address = (InetSocketAddress) listener.localAddress();
        log("serving " + dir + " (" + store().pageCount() + " pages of " + pageSize + " bytes) on "
                + address.getAddress().getHostAddress() + ":" + address.getPort() + ", "
                + (locking ? "page locking (lock wait " + lockWaitMs + " ms)" : "optimistic with callbacks")
                + ", lease " + leaseMs + " ms");
    }

    /** The address the server listens on (the actual port when 0 was asked for). */
    public InetSocketAddress address() {
        return address;
    }

    /** The client URI of this server: {@code qs://host:port}. */
    public String uri() {
        return "qs://" + address.getAddress().getHostAddress() + ":" + address.getPort();
    }

    /** Blocks until the server is closed. */
    public void awaitClose() throws InterruptedException {
        listener.closeFuture().await();
        while (true) {
            synchronized (this) {
                if (closed) {
                    return;
                }
                wait(1000);
            }
        }
    }

    // ---- what the session handlers use --------------------------------------------------------------

    int pageSize() {
        return pageSize;
    }

    long pageCount() {
        return store().pageCount();
    }

    long arenaBase() {
        return arenaBase;
    }

    UUID storeId() {
        return storeId;
    }

    ServerSecret secret() {
        return secret;
    }

    int maxClients() {
        return maxClients;
    }

    int leaseMs() {
        return leaseMs;
    }

    boolean locking() {
        return locking;
    }

    int lockWaitMs() {
        return lockWaitMs;
    }

    PageLocks locks() {
        return locks;
    }

    java.util.concurrent.ExecutorService lockExecutor() {
        return lockWaiters;
    }

    int handshakeTimeoutMs() {
        return handshakeTimeoutMs;
    }

    boolean admit() {
        if (connections.incrementAndGet() > maxClients) {
            return false;
        }
        return true;
    }

    Sessions sessions() {
        return sessions;
    }

    void left(Sessions.Session session, boolean control, String peer) {
        connections.decrementAndGet();
        if (control) {
            sessions.close(session.id); // its callbacks go with it
            locks.releaseAll(session.id); // and its page locks
            log("session " + session.id + " (" + peer + ") disconnected");
        }
    }

    /** A commit waiting for its commit path. */
    private record Pending(
            Sessions.Session session, CommitMessages.Commit commit, ChannelHandlerContext ctx, ServerRequestEvent ev) {}

    /**
     * Hands a client's commit to the commit path (it forces the log: never on an event loop) and answers the
     * client when the path completes it: under page locking the session's locks are released first (strict
     * two-phase locking ends with the transaction), then COMMITTED, CONFLICT or a refusal.
     */
    void commit(Sessions.Session session, CommitMessages.Commit c, ChannelHandlerContext ctx) {
        Pending p = new Pending(
                session,
                c,
                ctx,
                jdk.jfr.FlightRecorder.isInitialized() // never loads the event class otherwise
                        ? ServerRequestEvent.start(storeName(), session.id, ServerRequestEvent.COMMIT)
                        : null);
        commits.commit(c).whenComplete((applied, failure) -> {
            if (locking) {
                locks.releaseAll(session.id);
            }
            answer(
                    p,
                    applied != null
                            ? applied
                            : failure instanceof java.util.concurrent.CompletionException ce && ce.getCause() != null
                                    ? ce.getCause()
                                    : failure);
        });
    }

    private void answer(Pending p, Object outcome) {
        answerClient(p, outcome);
        ServerRequestEvent ev = p.ev();
        if (ev != null && ev.shouldCommit()) {
            ev.pagesWritten = p.commit().writes().size();
            long bytes = 0;
            for (CommitMessages.PageWrite w : p.commit().writes()) {
                for (byte[] b : w.bytes()) {
                    bytes += b.length;
                }
            }
            ev.bytes = bytes;
            ev.outcome = switch (outcome) {
                case CommitMessages.Applied _ -> "committed";
                case TransactionConflictException _ -> "conflict";
                default -> "refused";
            };
            ev.commit();
        }
    }

    private void answerClient(Pending p, Object outcome) {
        Sessions.Session session = p.session();
        ChannelHandlerContext ctx = p.ctx();
        switch (outcome) {
            case CommitMessages.Applied applied -> {
                commitsAnswered.incrementAndGet();
                session.commits.incrementAndGet();
                long[] written = p.commit().writes().stream()
                        .mapToLong(CommitMessages.PageWrite::page)
                        .toArray();
                // under locking a client learns of a changed page when it locks it (the page LSN): no callbacks
                var invalidations = locking
                        ? java.util.Map.<Sessions.Session, long[]>of()
                        : sessions.invalidate(session.id, written);
                for (var inv : invalidations.entrySet()) {
                    invalidationsSent.addAndGet(inv.getValue().length);
                    Channel ch = inv.getKey().control;
                    byte[] frame = new SessionFrame(
                                    SessionFrame.INVALIDATE,
                                    inv.getKey().id,
                                    CommitMessages.encodeInvalidate(inv.getValue()))
                            .encode();
                    ch.writeAndFlush(ch.alloc().buffer(frame.length).writeBytes(frame));
                }
                ctx.writeAndFlush(SessionHandler.buffer(
                        ctx,
                        new SessionFrame(
                                SessionFrame.COMMITTED,
                                session.id,
                                CommitMessages.encodeCommitted(p.commit().seq(), applied))));
            }
            case TransactionConflictException e -> {
                conflicts.incrementAndGet();
                session.conflicts.incrementAndGet();
                ctx.writeAndFlush(SessionHandler.buffer(
                        ctx,
                        new SessionFrame(
                                SessionFrame.CONFLICT,
                                session.id,
                                CommitMessages.encodeConflict(p.commit().seq(), e.conflicts()))));
            }
            case IllegalArgumentException e -> {
                log("session " + session.id + " sent a commit the store refuses (" + e.getMessage() + "): closed");
                ctx.executor().execute(() -> ((SessionHandler) ctx.handler()).refuse(ctx, e.getMessage()));
            }
            default -> {
                log("commit of session " + session.id + " failed: " + outcome);
                ctx.executor().execute(() -> ((SessionHandler) ctx.handler()).refuse(ctx, "commit failed: " + outcome));
            }
        }
    }

    /** The store's name in events: its directory, as the embedded store names itself. */
    String storeName() {
        return dir.toString();
    }

    /** Reads committed page {@code page} into {@code dst}: a {@link PageWire} status. */
    int readPage(long page, byte[] dst) {
        try {
            long t0 = System.nanoTime();
            ServedStore.of(store()).readCommittedPage(page, dst);
            readNanos.addAndGet(System.nanoTime() - t0);
            pagesServed.incrementAndGet();
            return PageWire.OK;
        } catch (IllegalArgumentException e) {
            return PageWire.NO_SUCH_PAGE;
        } catch (StoreException e) {
            log("reading page " + page + " failed: " + e.getMessage());
            return PageWire.ERROR;
        }
    }

    /** The server's counters and its clients (a STATUS answer). */
    dev.quickstore.core.remote.ServerStatus status() {
        java.util.Map<String, String> srv = new java.util.LinkedHashMap<>();
        srv.put("store", dir.toString());
        srv.put("address", uri());
        Store store = store();
        srv.put("pages", Long.toString(store.pageCount()));
        srv.put("pageSize", Integer.toString(pageSize));
        srv.put("leaseMs", Integer.toString(leaseMs));
        srv.put("concurrency", locking ? "locking" : "optimistic");
        long[] lc = locks.counters();
        srv.put("locksHeld", Long.toString(lc[0]));
        srv.put("deadlocks", Long.toString(lc[1]));
        srv.put("lockTimeouts", Long.toString(lc[2]));
        srv.put("clients", Integer.toString(sessions.size()));
        srv.put("pagesServed", Long.toString(pagesServed.get()));
        srv.put("commits", Long.toString(commitsAnswered.get()));
        commits.describe(srv);
        srv.put("conflicts", Long.toString(conflicts.get()));
        srv.put("pagesInvalidated", Long.toString(invalidationsSent.get()));
        // the server's store handle (what qs stats DIR shows for a handle it opens itself)
        dev.quickstore.core.stats.StoreStats st = store.stats();
        srv.put("storeBufferPoolPages", Integer.toString(st.bufferPoolPages()));
        srv.put("storePageReads", Long.toString(st.pageReads()));
        srv.put("storePageWrites", Long.toString(st.pageWrites()));
        srv.put("storeSteals", Long.toString(st.steals()));
        srv.put("storeCheckpoints", Long.toString(st.checkpoints()));
        srv.put("storeNextTxnId", Long.toString(st.nextTxnId()));
        srv.put("storeRedoRecords", Long.toString(st.redoRecords()));
        srv.put("storeRedoBytes", Long.toString(st.redoBytes()));
        srv.put("storeLogEndLsn", Long.toString(st.logEndLsn()));
        srv.put("storeLogDurableLsn", Long.toString(st.logDurableLsn()));
        srv.put("storeRecoveryRecordsScanned", Long.toString(st.recoveryRecordsScanned()));
        srv.put("storeRecoveryRedoApplied", Long.toString(st.recoveryRedoApplied()));
        srv.put("storeRecoveryLosersUndone", Integer.toString(st.recoveryLosersUndone()));
        srv.put(
                "storeRecoveryTornPagesRestored",
                Integer.toString(st.recoveryTornPagesRestored().size()));
        List<java.util.Map<String, String>> cs = new java.util.ArrayList<>();
        for (Sessions.Session s : sessions.all()) {
            java.util.Map<String, String> m = new java.util.LinkedHashMap<>();
            m.put("session", Long.toString(s.id));
            m.put("peer", s.peer);
            m.put("name", s.name);
            m.put("since", java.time.Instant.ofEpochMilli(s.since).toString());
            m.put("cachedPages", Integer.toString(s.cached.size()));
            m.put("commits", Long.toString(s.commits.get()));
            m.put("conflicts", Long.toString(s.conflicts.get()));
            m.put("dataConnection", Boolean.toString(s.data != null && s.data.isActive()));
            cs.add(m);
        }
        return new dev.quickstore.core.remote.ServerStatus(srv, cs);
    }

    /** Checks the store (Store.verify), for a client's VERIFY. */
    dev.quickstore.core.verify.VerifyReport verify() {
        dev.quickstore.core.verify.VerifyReport r = store().verify();
        log("verify: " + (r.ok() ? "OK" : r.problems().size() + " problem(s)") + ", " + r.pagesChecked() + " pages");
        return r;
    }

    /** Pages served since start. */
    public long pagesServed() {
        return pagesServed.get();
    }

    /** One line on the log stream, with the time. */
    void log(String line) {
        log.println(LocalTime.now().truncatedTo(ChronoUnit.MILLIS).format(TIME) + " qs serve: " + line);
        log.flush();
    }

    /** Stops accepting, closes every connection, checkpoints and closes the store. */
    @Override
    public void close() throws IOException {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            notifyAll();
        }
        try {
            if (listener != null) {
                listener.close().awaitUninterruptibly();
            }
            channels.close().awaitUninterruptibly();
            boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
            workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
            lockWaiters.shutdownNow();
            commits.close(); // the local path finishes its group first
        } finally {
            if (ownsStore) {
                store().close();
            }
            long n = pagesServed.get();
            long[] lc = locks.counters();
            java.util.Map<String, String> pathCounters = new java.util.LinkedHashMap<>();
            commits.describe(pathCounters);
            log("stopped (" + commitsAnswered.get() + " commits answered, " + pathCounters + ", "
                    + (locking ? lc[1] + " deadlocks and " + lc[2] + " lock waits refused, " : "") + conflicts.get()
                    + " conflicts, " + invalidationsSent.get()
                    + " pages invalidated; " + n + " pages served, " + (n == 0 ? 0 : readNanos.get() / n / 1000.0)
                    + " us per page read from the store)");
        }
    }
}
