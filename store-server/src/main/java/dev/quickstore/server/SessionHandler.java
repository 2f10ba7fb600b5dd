package dev.quickstore.server;

import dev.quickstore.core.remote.Challenge;
import dev.quickstore.core.remote.CommitMessages;
import dev.quickstore.core.remote.Hello;
import dev.quickstore.core.remote.SessionFrame;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;

/**
 * One client connection: HELLO, then CHALLENGE with a fresh nonce, then the client's PROOF (an HMAC of the
 * nonce under the store's secret), then WELCOME (docs/formats.md, "Page server: session"). A control
 * connection opens a session and then carries COMMITs and their answers and the server's INVALIDATEs; a data
 * connection joins a session and then carries page requests only. Anything out of order, malformed or unauthenticated closes the connection (after a
 * REFUSED frame where the client can still read one); the server itself is never affected. A client that
 * has not authenticated within the handshake deadline is disconnected.
 *
 * <p>Page reads run on the connection's event loop: a read takes the store latch and copies a page from the
 * buffer pool, or reads it from the volume file (the OS page cache, usually); handing it to another thread
 * and back cost more than the read itself (RemoteFaultBenchmark). One connection's requests are serialized by
 * the client's fault path (one request in flight per connection, qs_socket.c), so answers go out in order.
 */
final class SessionHandler extends ChannelInboundHandlerAdapter {
    private enum State {
        HELLO,
        PROOF,
        SERVING
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    private final PageServer server;
    private State state = State.HELLO;
    private byte[] nonce;
    private Hello hello;
    private Sessions.Session session;
    private long sessionId;
    private String peer = "?";
    private ScheduledFuture<?> handshakeDeadline;

    SessionHandler(PageServer server) {
        this.server = server;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        peer = String.valueOf(ctx.channel().remoteAddress()).replaceFirst("^/", "");
        if (!server.admit()) {
            refuse(ctx, "the server has " + server.maxClients() + " connections, its limit");
            return;
        }
        handshakeDeadline = ctx.executor()
                .schedule(
                        () -> refuse(ctx, "no authentication within " + server.handshakeTimeoutMs() + " ms"),
                        server.handshakeTimeoutMs(),
                        TimeUnit.MILLISECONDS);
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (handshakeDeadline != null) {
            handshakeDeadline.cancel(false);
        }
        server.left(session, hello != null && hello.role() == Hello.CONTROL && state == State.SERVING, peer);
        ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        switch (msg) {
            case SessionFrame f -> session(ctx, f);
            case PageWire.Request r -> page(ctx, r);
            default -> throw new IllegalStateException("unexpected message " + msg);
        }
    }

    private void session(ChannelHandlerContext ctx, SessionFrame f) {
        if (state == State.HELLO && f.type() == SessionFrame.HELLO) {
            try {
                hello = Hello.decode(f.payload());
            } catch (SessionFrame.ProtocolException e) {
                server.log("client " + peer + " sent a malformed HELLO (" + e.getMessage() + "): connection closed");
                refuse(ctx, "malformed HELLO: " + e.getMessage());
                return;
            }
            String refusal = server.refusal();
            if (refusal != null) { // a replica that is not the group's leader (store-replication)
                refuse(ctx, refusal);
                return;
            }
            if (hello.pid() == (int) ProcessHandle.current().pid()
                    && ctx.channel().remoteAddress() instanceof java.net.InetSocketAddress a
                    && a.getAddress().isLoopbackAddress()) {
                // its faults would wait for this JVM's threads, which a safepoint stops while the faulting
                // thread waits in its signal handler: a deadlock until the client's timeout (design notes 2)
                refuse(
                        ctx,
                        "a client in the page server's own process cannot be served (its page faults would"
                                + " wait on this JVM's threads); run the server in its own process (qs serve)");
                return;
            }
            nonce = new byte[Challenge.NONCE];
            RANDOM.nextBytes(nonce);
            Challenge c =
                    new Challenge(nonce, server.pageSize(), server.pageCount(), server.arenaBase(), server.storeId());
            ctx.writeAndFlush(buffer(ctx, new SessionFrame(SessionFrame.CHALLENGE, 0, c.encode())));
            state = State.PROOF;
        } else if (state == State.PROOF && f.type() == SessionFrame.PROOF) {
            if (!server.secret().verifies(nonce, f.payload())) {
                server.log("client " + peer + " refused: wrong proof (it does not know the store's secret)");
                refuse(ctx, "authentication failed: the proof does not match the store's secret");
                return;
            }
            if (hello.role() == Hello.CONTROL) {
                ctx.pipeline().get(FrameDecoder.class).allowCommits();
                session = server.sessions().open(peer, hello.name(), ctx.channel());
                server.log("client " + peer + " (" + hello.name() + ") authenticated: session " + session.id);
            } else {
                session = server.sessions().get(hello.session());
                if (session == null) {
                    refuse(ctx, "no session " + hello.session() + " (open the control connection first)");
                    return;
                }
            }
            handshakeDeadline.cancel(false);
            sessionId = session.id;
            state = State.SERVING;
            if (hello.role() == Hello.CONTROL) {
                // the lease: a control connection that sends nothing (not even a HEARTBEAT) for this long ends
                ctx.pipeline()
                        .addFirst(new io.netty.handler.timeout.IdleStateHandler(
                                server.leaseMs(), 0, 0, TimeUnit.MILLISECONDS));
            } else {
                session.data = ctx.channel();
            }
            byte[] lease = java.nio.ByteBuffer.allocate(5)
                    .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                    .putInt(server.leaseMs())
                    .put((byte) (server.locking() ? 1 : 0))
                    .array();
            ctx.writeAndFlush(buffer(ctx, new SessionFrame(SessionFrame.WELCOME, sessionId, lease)));
        } else if (state == State.SERVING && hello.role() == Hello.CONTROL && f.type() == SessionFrame.STATUS) {
            ctx.writeAndFlush(buffer(
                    ctx,
                    new SessionFrame(
                            SessionFrame.STATUS, sessionId, server.status().encode())));
        } else if (state == State.SERVING && hello.role() == Hello.CONTROL && f.type() == SessionFrame.VERIFY) {
            server.lockExecutor()
                    .execute(
                            () -> { // a whole-store check: never on the event loop
                                byte[] report;
                                try {
                                    report = dev.quickstore.core.remote.VerifyMessages.encode(server.verify());
                                } catch (RuntimeException e) {
                                    ctx.executor().execute(() -> refuse(ctx, "verify failed: " + e.getMessage()));
                                    return;
                                }
                                ctx.writeAndFlush(
                                        buffer(ctx, new SessionFrame(SessionFrame.VERIFIED, sessionId, report)));
                            });
        } else if (state == State.SERVING && hello.role() == Hello.CONTROL && f.type() == SessionFrame.ABORT) {
            server.locks().releaseAll(sessionId); // the transaction ended without a commit
            ctx.writeAndFlush(buffer(ctx, new SessionFrame(SessionFrame.ABORTED, sessionId, f.payload())));
        } else if (state == State.SERVING && hello.role() == Hello.CONTROL && f.type() == SessionFrame.HEARTBEAT) {
            // nothing to do: reading it renewed the lease (IdleStateHandler)
        } else if (state == State.SERVING && hello.role() == Hello.CONTROL && f.type() == SessionFrame.COMMIT) {
            CommitMessages.Commit c;
            try {
                c = CommitMessages.decodeCommit(f.payload());
            } catch (SessionFrame.ProtocolException e) {
                server.log("session " + sessionId + " sent a malformed COMMIT (" + e.getMessage() + "): closed");
                refuse(ctx, "malformed COMMIT: " + e.getMessage());
                return;
            }
            server.commit(session, c, ctx);
        } else {
            refuse(ctx, "unexpected session frame type " + f.type() + " in state " + state);
        }
    }

    private void page(ChannelHandlerContext ctx, PageWire.Request r) {
        if (state != State.SERVING || hello.role() != Hello.DATA) {
            server.log("client " + peer + " sent a page request before authenticating: connection closed");
            ctx.close();
            return;
        }
        int wanted = r.type() == PageWire.READ_PAGE ? server.pageSize() : 8;
        if (r.bytesWanted() != wanted) {
            server.log("client " + peer + " asked for " + r.bytesWanted() + " bytes of page " + r.page()
                    + " in a request of type " + r.type() + ", expected " + wanted + ": connection closed");
            ctx.close();
            return;
        }
        ServerRequestEvent ev = jdk.jfr.FlightRecorder.isInitialized() // never loads the event class otherwise
                ? ServerRequestEvent.start(
                        server.storeName(),
                        sessionId,
                        r.type() == PageWire.LOCK_PAGE ? ServerRequestEvent.LOCK : ServerRequestEvent.READ)
                : null;
        if (r.mode() != 0 && server.locking()) {
            // may wait for other sessions' locks: never on the event loop
            server.lockExecutor().execute(() -> {
                PageLocks.Outcome o;
                try {
                    o = server.locks().acquire(sessionId, r.page(), r.mode(), server.lockWaitMs());
                } catch (InterruptedException e) {
                    respond(ctx, r, PageWire.ERROR, null, ev);
                    return;
                }
                switch (o) {
                    case GRANTED -> serve(ctx, r, ev);
                    case DEADLOCK -> respond(ctx, r, PageWire.DEADLOCK, null, ev);
                    case TIMEOUT -> respond(ctx, r, PageWire.LOCK_TIMEOUT, null, ev);
                }
            });
            return;
        }
        if (r.type() == PageWire.LOCK_PAGE) {
            respond(ctx, r, PageWire.DENIED, null, ev); // this server does not lock pages
            return;
        }
        // served on the event loop: a read is a latch, a buffer-pool hit or a pread from the OS page cache, and
        // a hand-off to another thread and back costs more than that (RemoteFaultBenchmark)
        serve(ctx, r, ev);
    }

    /** Answers a page request whose lock (if any) is held: the page, or its LSN for LOCK_PAGE. */
    private void serve(ChannelHandlerContext ctx, PageWire.Request r, ServerRequestEvent ev) {
        byte[] page = new byte[server.pageSize()];
        int status = server.readPage(r.page(), page);
        if (status == PageWire.OK) {
            session.cached.add(r.page()); // the callback table: this client now caches the page
        }
        if (r.type() == PageWire.LOCK_PAGE && status == PageWire.OK) {
            page = java.util.Arrays.copyOfRange(page, 16, 24); // the page LSN, little-endian
        }
        respond(ctx, r, status, page, ev);
    }

    /** Writes the answer; {@code ev} (null: not recorded) ends with it. */
    private static void respond(
            ChannelHandlerContext ctx, PageWire.Request r, int status, byte[] payload, ServerRequestEvent ev) {
        int n = status == PageWire.OK ? payload.length : 0;
        ByteBuf out = ctx.alloc().buffer(PageWire.HEADER + n);
        PageWire.encode(out, r, status, status == PageWire.OK ? payload : new byte[0]);
        ctx.writeAndFlush(out);
        if (ev != null && ev.shouldCommit()) {
            ev.page = r.page();
            ev.lockMode = r.mode();
            ev.bytes = n;
            ev.outcome = ServerRequestEvent.status(status);
            ev.commit();
        }
    }

    void refuse(ChannelHandlerContext ctx, String reason) {
        if (!ctx.channel().isActive()) {
            return;
        }
        byte[] text = reason.getBytes(StandardCharsets.UTF_8);
        if (text.length > SessionFrame.MAX_PAYLOAD) {
            text = java.util.Arrays.copyOf(text, SessionFrame.MAX_PAYLOAD);
        }
        ctx.writeAndFlush(buffer(ctx, new SessionFrame(SessionFrame.REFUSED, 0, text)))
                .addListener(ChannelFutureListener.CLOSE);
    }

    static ByteBuf buffer(ChannelHandlerContext ctx, SessionFrame f) {
        byte[] b = f.encode();
        return ctx.alloc().buffer(b.length).writeBytes(b);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof io.netty.handler.timeout.IdleStateEvent) {
            server.log("session " + sessionId + " (" + peer + ") sent nothing within its lease of " + server.leaseMs()
                    + " ms: session ended, its callbacks dropped");
            ctx.close();
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Throwable c = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        if (c instanceof SessionFrame.ProtocolException) {
            server.log("client " + peer + " sent a malformed frame (" + c.getMessage() + "): connection closed");
            if (state != State.SERVING) {
                refuse(ctx, "malformed frame: " + c.getMessage());
            } else {
                ctx.close(); // the fault path does not read session frames
            }
        } else if (c instanceof java.io.IOException) {
            ctx.close(); // connection reset by the client: nothing to report beyond its departure
        } else {
            server.log("client " + peer + ": " + c + ": connection closed");
            ctx.close();
        }
    }
}
