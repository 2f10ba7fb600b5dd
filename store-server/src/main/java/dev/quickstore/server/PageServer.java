package dev.quickstore.server;

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
 * <p>What is served today: the read path (HELLO/CHALLENGE/PROOF/WELCOME, then page requests answered from the
 * committed state). Commits, validation and callbacks (issue 12) attach to {@link SessionHandler}.
 *
 * <p>Security: binds where it is told (loopback by default in {@code qs serve}); a client must prove it knows
 * the store's secret ({@link ServerSecret}) before any page is served; at most {@link #maxClients()}
 * connections; a connection that has not authenticated within {@link #handshakeTimeoutMs()} is closed.
 * Progress and errors go to the log stream, one line each.
 */
public final class PageServer implements AutoCloseable {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

    private final Path dir;
    private final Store store;
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
    private final java.util.concurrent.ExecutorService committer;
    private final AtomicLong pagesServed = new AtomicLong();
    private final AtomicLong commits = new AtomicLong();
    private final AtomicLong conflicts = new AtomicLong();
    private final AtomicLong invalidationsSent = new AtomicLong();
    private final AtomicLong readNanos = new AtomicLong();
    private final int maxClients;
    private final int handshakeTimeoutMs;
    private Channel listener;
    private InetSocketAddress address;
    private boolean closed;

    private PageServer(Path dir, Store store, ServerSecret secret, PrintStream log, int maxClients, int handshakeMs) {
        this.dir = dir;
        this.store = store;
        this.secret = secret;
        this.log = log;
        this.pageSize = store.pageSize();
        this.arenaBase = store.arenaBase();
        this.storeId = store.creationId();
        this.maxClients = maxClients;
        this.handshakeTimeoutMs = handshakeMs;
        this.boss = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        this.workers = new MultiThreadIoEventLoopGroup(0, NioIoHandler.newFactory());
        this.committer = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "qs-commit");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Opens the store in {@code dir} (running recovery if needed), creates its secret if it has none, and
     * listens on {@code listen} (port 0: an ephemeral port, see {@link #address()}).
     */
    public static PageServer start(Path dir, InetSocketAddress listen, PrintStream log) throws IOException {
        ServerSecret secret = ServerSecret.loadOrCreate(dir);
        Store store = Store.open(
                dir, StoreOptions.builder().frames(FramesMode.EXPLICIT).build());
        PageServer s = null;
        try {
            s = new PageServer(dir, store, secret, log, 256, 10_000);
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
        log("serving " + dir + " (" + store.pageCount() + " pages of " + pageSize + " bytes) on "
                + address.getAddress().getHostAddress() + ":" + address.getPort());
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
        return store.pageCount();
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
            log("session " + session.id + " (" + peer + ") disconnected");
        }
    }

    /**
     * Validates and applies a client's commit on the commit thread (it forces the log: never on an event
     * loop), answers on the control connection, then sends invalidations to every other client caching a
     * written page.
     */
    void commit(Sessions.Session session, CommitMessages.Commit c, ChannelHandlerContext ctx) {
        committer.execute(() -> {
            long[] written = c.writes().stream()
                    .mapToLong(CommitMessages.PageWrite::page)
                    .toArray();
            SessionFrame answer;
            try {
                CommitMessages.Applied applied = store.commitPageWrites(c.reads(), c.writes());
                commits.incrementAndGet();
                answer = new SessionFrame(
                        SessionFrame.COMMITTED, session.id, CommitMessages.encodeCommitted(c.seq(), applied));
            } catch (TransactionConflictException e) {
                conflicts.incrementAndGet();
                ctx.writeAndFlush(SessionHandler.buffer(
                        ctx,
                        new SessionFrame(
                                SessionFrame.CONFLICT,
                                session.id,
                                CommitMessages.encodeConflict(c.seq(), e.conflicts()))));
                return;
            } catch (IllegalArgumentException e) {
                log("session " + session.id + " sent a commit the store refuses (" + e.getMessage() + "): closed");
                ctx.executor().execute(() -> ((SessionHandler) ctx.handler()).refuse(ctx, e.getMessage()));
                return;
            } catch (RuntimeException e) {
                log("commit of session " + session.id + " failed: " + e.getMessage());
                ctx.executor().execute(() -> ((SessionHandler) ctx.handler()).refuse(ctx, "commit failed: " + e));
                return;
            }
            for (var inv : sessions.invalidate(session.id, written).entrySet()) {
                invalidationsSent.addAndGet(inv.getValue().length);
                Channel ch = inv.getKey().control;
                byte[] frame = new SessionFrame(
                                SessionFrame.INVALIDATE,
                                inv.getKey().id,
                                CommitMessages.encodeInvalidate(inv.getValue()))
                        .encode();
                ch.writeAndFlush(ch.alloc().buffer(frame.length).writeBytes(frame));
            }
            ctx.writeAndFlush(SessionHandler.buffer(ctx, answer));
        });
    }

    /** Reads committed page {@code page} into {@code dst}: a {@link PageWire} status. */
    int readPage(long page, byte[] dst) {
        try {
            long t0 = System.nanoTime();
            store.readCommittedPage(page, dst);
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
            committer.shutdown();
            try {
                committer.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        } finally {
            store.close();
            long n = pagesServed.get();
            log("stopped (" + commits.get() + " commits, " + conflicts.get() + " conflicts, " + invalidationsSent.get()
                    + " pages invalidated; " + n + " pages served, " + (n == 0 ? 0 : readNanos.get() / n / 1000.0)
                    + " us per page read from the store)");
        }
    }
}
