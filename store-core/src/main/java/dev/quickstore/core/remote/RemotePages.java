package dev.quickstore.core.remote;

import dev.quickstore.core.error.StoreException;
import dev.quickstore.mmu.FaultCounters;
import dev.quickstore.mmu.FaultRefusedException;
import dev.quickstore.mmu.MappedArena;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * A client's mapped view of a page server's store (QuickStore on ESM, White and DeWitt 1994 section 1 and
 * 4.4): the arena is mapped at the store's preferred base, every frame is reserved with a page-server source,
 * and a plain load from a page that is not resident faults it in from the server, entirely in C over the
 * connection (qs_socket.c; design notes section 11) - the handler never calls Java and never waits without a
 * deadline. Pages stay cached across {@link #read} calls until this view is closed.
 *
 * <p>Two connections per client, both authenticated ({@link SessionFrame}: HELLO, CHALLENGE, PROOF, WELCOME):
 * the control connection (Java: commits, the server's invalidations) opens the session, the data connection
 * joins it and is handed to the arena for the fault path. Transactions are optimistic ({@link #begin}):
 * reads never wait for other clients; the commit ships the page diffs and the versions of the pages read and
 * written, and the server validates them against its committed state (backward validation) or answers
 * {@link TransactionConflictException}. Other clients' commits reach the cache as invalidations, applied when
 * the next transaction begins.
 *
 * <p>Failure: when the server dies or stops answering within the timeout, the faults in flight are refused
 * (they read zeros on a scratch page, never a stale or partial page) and the {@link #read} that made them
 * throws {@link ServerUnavailableException}; the view stays unusable and the client connects again.
 */
public final class RemotePages implements AutoCloseable {
    /** The default port of {@code qs serve}. */
    public static final int DEFAULT_PORT = ServerAddress.DEFAULT_PORT;

    private final InetSocketAddress server;
    private final Challenge store;
    private final long sessionId;
    private final MappedArena arena;
    private final int source;
    private final int timeoutMs;
    private final ControlConnection control;
    private final CommitSets commitSets;
    private RemoteTransaction current;
    private long nextSeq = 1;
    private long invalidatedPages;
    private long commits;
    private long conflicts;
    /** Frames [0, bound) may hold pages: the store's pages at connect, or more once it grew ({@link #grew}). */
    private volatile long bound;

    private RemotePages(
            InetSocketAddress server,
            Challenge store,
            long sessionId,
            MappedArena arena,
            int source,
            int timeoutMs,
            ControlConnection control,
            long pages) {
        this.bound = Math.max(pages, 1);
        this.server = server;
        this.store = store;
        this.sessionId = sessionId;
        this.arena = arena;
        this.source = source;
        this.timeoutMs = timeoutMs;
        this.control = control;
        this.commitSets = new CommitSets(arena, store.pageSize());
    }

    /**
     * Connects to the page server at {@code uri} ({@code qs://host:port}, port {@value #DEFAULT_PORT} if
     * omitted), proves knowledge of the store's secret, and maps its pages.
     *
     * @param secretFile a copy of the store's {@value ServerSecret#FILE} (mode 0600)
     * @param timeoutMs the deadline of every request, the handshake's and each page fault's
     * @throws ServerUnavailableException if the server cannot be reached or refuses the client
     */
    public static RemotePages connect(String uri, Path secretFile, int timeoutMs) throws IOException {
        return connect(uri, secretFile, timeoutMs, 0);
    }

    /**
     * {@link #connect(String, Path, int)} with an arena of {@code arenaBytes} virtual bytes (reserved, not
     * committed), so that the store can grow past its page count at connect time; 0 sizes the arena to the
     * store's pages. A storage manager running as this client ({@code Store.connect}) needs the room.
     */
    public static RemotePages connect(String uri, Path secretFile, int timeoutMs, long arenaBytes) throws IOException {
        InetSocketAddress address = parse(uri);
        ServerSecret secret = ServerSecret.read(secretFile);
        ControlConnection control;
        try {
            control = ControlConnection.open(address, secret, timeoutMs);
        } catch (IOException e) {
            throw DataConnection.unavailable(uri, e);
        }
        boolean ok = false;
        try {
            DataConnection d = DataConnection.open(uri, address, secret, timeoutMs, control, arenaBytes);
            RemotePages r = new RemotePages(
                    address, d.store(), d.sessionId(), d.arena(), d.source(), timeoutMs, control, d.pages());
            ok = true;
            return r;
        } finally {
            if (!ok) {
                control.close();
            }
        }
    }

    /** {@code qs://host[:port]} as an address; the host must resolve to IPv4. */
    public static InetSocketAddress parse(String uri) throws IOException {
        return ServerAddress.parse(uri);
    }

    /**
     * Runs {@code work}, which reads pages through {@link #view()}, as one read of the cached store: faults
     * are allowed while it runs, and a fault the data plane refused surfaces here as {@link
     * ServerUnavailableException} (the server is gone or late) or as the {@link FaultRefusedException}
     * (anything else, such as a checksum mismatch).
     */
    public synchronized <T> T read(Supplier<T> work) {
        if (current != null) {
            throw new StoreException("read(...) while transaction " + current.seq() + " runs: use its view");
        }
        if (arena.sources().sourceBroken(source)) {
            throw unavailable(null);
        }
        arena.transaction(true);
        T result;
        try {
            result = work.get();
        } finally {
            arena.transaction(false);
        }
        try {
            arena.refusals().checkPending();
        } catch (FaultRefusedException e) {
            arena.refused().repairRefused(0, bound);
            if (arena.sources().sourceBroken(source)) {
                throw unavailable(e);
            }
            throw new StoreException("a fault on the page server's store was refused: " + e.getMessage(), e);
        }
        return result;
    }

    private ServerUnavailableException unavailable(Throwable cause) {
        return new ServerUnavailableException(
                "page server " + server.getAddress().getHostAddress() + ":" + server.getPort()
                        + " is unavailable (it closed the connection or did not answer within " + timeoutMs
                        + " ms); the faults in flight were refused - connect again",
                cause);
    }

    /**
     * The store's volume header, read from page 0 through the view (a real fault served by the server the
     * first time) and validated.
     */
    public dev.quickstore.core.volume.VolumeHeader header() {
        byte[] page0 =
                read(() -> arena.view().asSlice(0, store.pageSize()).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
        return dev.quickstore.core.volume.VolumeHeader.decode(
                "qs://" + server.getAddress().getHostAddress() + ":" + server.getPort() + " page 0", page0);
    }

    /** The arena: the page at store address {@code a} is at offset {@code a - arenaBase()} of this view. */
    public MemorySegment view() {
        return arena.view();
    }

    /** The address of page 0's first byte in this process. */
    public long arenaBase() {
        return arena.base();
    }

    /** Whether the arena sits at the store's preferred base (then store addresses are valid as they are). */
    public boolean atPreferredBase() {
        return arena.atPreferredBase();
    }

    public int pageSize() {
        return store.pageSize();
    }

    /** The server's page count when this client connected. */
    public long pageCount() {
        return store.pageCount();
    }

    public UUID storeId() {
        return store.storeId();
    }

    /** The session id the server gave this client. */
    public long sessionId() {
        return sessionId;
    }

    /** Whether the connection is still usable (no timeout, closed connection or protocol error seen). */
    public boolean connected() {
        return !arena.sources().sourceBroken(source);
    }

    /** Pages resident in this client's cache. */
    public long residentPages() {
        return arena.residentFrames();
    }

    /** The fault path's counters (faults, bytes read, time in the handler). */
    public FaultCounters counters() {
        return arena.counters();
    }

    /**
     * Drops every cached page (its memory is kept for reuse): the next read of a page faults it in from the
     * server again. Returns how many pages were dropped.
     */
    public synchronized long dropCache() {
        return arena.evict(0, bound, false, true);
    }

    // ---- transactions -------------------------------------------------------------------------------

    /**
     * Begins this client's transaction (one at a time): first the pages other clients' commits invalidated
     * are dropped from the cache, then every cached page is protected again so that the first access of each
     * in this transaction is seen (a reference fault, no I/O): the read set that {@link RemoteTransaction#commit}
     * validates.
     */
    public synchronized RemoteTransaction begin() {
        if (current != null) {
            throw new StoreException("a transaction is already active on this client (one at a time)");
        }
        checkConnected();
        applyInvalidations();
        arena.refused().repairRefused(0, bound);
        arena.reprotectAll();
        arena.transaction(true);
        current = new RemoteTransaction(this, nextSeq++);
        return current;
    }

    private void checkConnected() {
        if (arena.sources().sourceBroken(source) || control.broken() != null) {
            throw unavailable(null);
        }
    }

    private void applyInvalidations() {
        for (long p : control.takeInvalidations()) {
            if (p >= 0 && p < bound) {
                arena.evict(p, 1, false, true);
                invalidatedPages++;
            }
        }
    }

    /**
     * The cache's arena, for a storage manager that runs as this client ({@code Store.connect}): it reserves
     * frames beyond the connect-time page count with {@link #pageSource()} and reads pages through it.
     */
    public MappedArena arena() {
        return arena;
    }

    /** The arena's page source for this server (the data connection). */
    public int pageSource() {
        return source;
    }

    /** The store grew to {@code pages} pages (this client's commit, or another's it read): frames to manage. */
    public void grew(long pages) {
        if (pages > bound) {
            bound = pages;
        }
    }

    /**
     * The storage manager's own access to cached page {@code page} inside a transaction, resolved as a fault
     * of the view on it would be ({@link dev.quickstore.mmu.FrameLoading#touch}): loaded from the server if not
     * cached, its first access in the transaction recorded (the read set; under page locking, the lock), a write's pre-image
     * captured. A refusal is queued as a fault's is ({@code arena().refusals()}).
     */
    public void touch(long page, boolean write) {
        arena.loading().touch(page, write);
    }

    /**
     * Loads page {@code page} from the server into its frame unless it is cached (the fault path's own read,
     * in C over the data connection) and returns it through the always-writable alias.
     *
     * @throws ServerUnavailableException if the server is gone or late
     */
    public MemorySegment fetch(long page) {
        try {
            arena.loading().prefetch(page);
        } catch (RuntimeException e) {
            if (arena.sources().sourceBroken(source)) {
                throw unavailable(e);
            }
            throw e;
        }
        return arena.alias().asSlice(page * store.pageSize(), store.pageSize());
    }

    /**
     * Drops frames [first, bound) with their changes (pages that exist only in this client: a transaction
     * grew the store, then aborted or conflicted). Returns how many were resident.
     */
    public synchronized long dropFrom(long first) {
        long b = bound;
        return first < b ? arena.evict(first, b - first, true, true) : 0;
    }

    /** Ends the transaction's access to the view: a fault from now on is refused. */
    synchronized void endAccess() {
        arena.transaction(false);
    }

    /**
     * The commit of {@code t} (called by it): refusals, then the read set and the diffs of the written pages,
     * then the server's validation. After COMMITTED a written page stays cached: validation proved it was the
     * server's version when read, and the server applied exactly this client's diffs to it, so the cached
     * bytes are the committed page; only its LSN is set to the server's new one (and the frame marked clean).
     * On a conflict or a failure the written and the conflicting pages leave the cache (their next read
     * fetches the committed version).
     */
    synchronized long commit(RemoteTransaction t) {
        if (current != t) {
            throw new StoreException("transaction " + t.seq() + " is not this client's current transaction");
        }
        long[] dirty = arena.preimages().dirtyFrames();
        boolean keepWritten = false;
        try {
            try {
                arena.refusals().checkPending();
            } catch (FaultRefusedException e) {
                if (arena.sources().sourceBroken(source)) {
                    throw unavailable(e);
                }
                releaseLocks(t);
                if (e.reason() == dev.quickstore.mmu.RefusalReason.LOCK) {
                    throw new PageLockException(
                            "transaction " + t.seq() + " of session " + sessionId + " was refused the lock of page "
                                    + e.page() + " (" + (e.errno() == 35 ? "deadlock" : "lock wait timed out")
                                    + "); it was aborted, retry it",
                            e.page(),
                            e);
                }
                throw new StoreException("a fault of the transaction was refused: " + e.getMessage(), e);
            }
            CommitMessages.Commit c = new CommitMessages.Commit(
                    t.seq(), control.locking ? List.of() : commitSets.readSet(dirty), commitSets.writes(dirty));
            SessionFrame answer;
            try {
                answer = control.call(
                        new SessionFrame(SessionFrame.COMMIT, sessionId, CommitMessages.encodeCommit(c)),
                        4 * timeoutMs);
            } catch (IOException e) {
                throw unavailable(e);
            }
            try {
                switch (answer.type()) {
                    case SessionFrame.COMMITTED -> {
                        CommitMessages.Applied applied = CommitMessages.decodeCommitted(answer.payload(), new long[1]);
                        List<CommitMessages.PageWrite> ws = c.writes();
                        if (applied.pageLsns().length != ws.size()) {
                            throw unavailable(new SessionFrame.ProtocolException("COMMITTED names "
                                    + applied.pageLsns().length + " pages for " + ws.size() + " written"));
                        }
                        MemorySegment alias = arena.alias();
                        for (int i = 0; i < ws.size(); i++) {
                            long f = ws.get(i).page();
                            alias.set(
                                    CommitSets.LSN,
                                    f * store.pageSize() + CommitSets.LSN_OFFSET,
                                    applied.pageLsns()[i]);
                            arena.preimages().markClean(f);
                        }
                        keepWritten = true;
                        commits++;
                        return applied.commitLsn();
                    }
                    case SessionFrame.CONFLICT -> {
                        List<CommitMessages.Conflict> cs = CommitMessages.decodeConflict(answer.payload(), new long[1]);
                        for (CommitMessages.Conflict x : cs) {
                            arena.evict(x.page(), 1, true, true);
                        }
                        conflicts++;
                        throw new TransactionConflictException(
                                "transaction " + t.seq() + " of session " + sessionId + " conflicts: "
                                        + TransactionConflictException.describe(cs),
                                cs);
                    }
                    default -> throw unavailable(new IOException(new String(answer.payload(), StandardCharsets.UTF_8)));
                }
            } catch (SessionFrame.ProtocolException e) {
                throw unavailable(e);
            }
        } finally {
            if (!keepWritten) {
                for (long f : dirty) {
                    arena.evict(f, 1, true, true);
                }
            }
            arena.refused().repairRefused(0, bound);
            current = null;
        }
    }

    /** Under locking: tells the server the transaction ended without a commit (it releases the locks). */
    private void releaseLocks(RemoteTransaction t) {
        if (!control.locking) {
            return;
        }
        byte[] seq = java.nio.ByteBuffer.allocate(8)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                .putLong(t.seq())
                .array();
        request(SessionFrame.ABORT, seq, SessionFrame.ABORTED, 4 * timeoutMs);
    }

    /**
     * One request on the control connection and the payload of its answer of type {@code expected}; a
     * connection that fails, or an answer of another type, makes the server unavailable to this client.
     */
    private byte[] request(int type, byte[] payload, int expected, int waitMs) {
        try {
            SessionFrame answer = control.call(new SessionFrame(type, sessionId, payload), waitMs);
            ControlConnection.expect(server, answer, expected);
            return answer.payload();
        } catch (IOException e) {
            throw unavailable(e);
        }
    }

    /** Whether the server runs page locking rather than optimistic validation. */
    public boolean locking() {
        return control.locking;
    }

    /** Rolls {@code t} back: its written pages are dropped (their next read fetches the committed version). */
    synchronized void abort(RemoteTransaction t) {
        if (current != t) {
            return;
        }
        arena.transaction(false);
        try {
            releaseLocks(t);
        } catch (ServerUnavailableException e) {
            // the server is gone: its locks went with the session
        }
        for (long f : arena.preimages().dirtyFrames()) {
            arena.evict(f, 1, true, true);
        }
        arena.refused().repairRefused(0, bound);
        current = null;
    }

    /** Asks the server for its counters and its clients ({@code qs clients}). */
    public synchronized ServerStatus serverStatus() {
        checkConnected();
        byte[] answer = request(SessionFrame.STATUS, new byte[0], SessionFrame.STATUS, 4 * timeoutMs);
        try {
            return ServerStatus.decode(answer);
        } catch (SessionFrame.ProtocolException e) {
            throw unavailable(e);
        }
    }

    /**
     * Asks the server to check its store (every page's checksum and the structural invariants, {@code
     * Store.verify()}) and returns its report. The check runs at the server under its store latch: commits wait
     * for it.
     */
    public synchronized dev.quickstore.core.verify.VerifyReport verifyAtServer() {
        checkConnected();
        byte[] answer = request(SessionFrame.VERIFY, new byte[0], SessionFrame.VERIFIED, 600_000);
        try {
            return VerifyMessages.decode(answer);
        } catch (SessionFrame.ProtocolException e) {
            throw unavailable(e);
        }
    }

    /** Transactions committed, conflicts, pages invalidated by other clients' commits (this client's counts). */
    public synchronized long[] transactionCounters() {
        return new long[] {commits, conflicts, invalidatedPages};
    }

    /** Unmaps the cache and closes both connections. */
    @Override
    public synchronized void close() {
        try {
            arena.close();
        } finally {
            control.close();
        }
    }
}
