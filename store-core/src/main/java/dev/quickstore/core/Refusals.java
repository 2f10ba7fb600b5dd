package dev.quickstore.core;

import dev.quickstore.core.buffer.Addresses;
import dev.quickstore.core.buffer.MappedFrames;
import dev.quickstore.core.error.PageFaultRefusedException;
import dev.quickstore.core.events.Recorder;
import dev.quickstore.core.events.RefusedFaultEvent;
import dev.quickstore.mmu.FaultRefusedException;
import dev.quickstore.mmu.RefusalQueue;
import java.nio.file.Path;

/**
 * Where refused faults reach Java (design notes section 2a): the data plane completes a refused access on a
 * scratch page and records the refusal; the store takes it at its API boundaries, turns it into a typed
 * {@link PageFaultRefusedException} naming the page, and dooms the running transaction so that nothing computed
 * from the scratch page's zeros can commit. Callers hold the store latch for {@link #take} and {@link #discard}.
 */
final class Refusals {
    private final MappedFrames frames; // null in EXPLICIT mode: nothing is ever refused
    /**
     * The arena's queue, held here so that the check of every store operation ({@link #pending}) is one field load
     * and the queue's acquire load, not a walk through the frames and the arena (the check with the walk was 8.9 % of
     * a batched object creation's profile, without it 4.1 %; docs/results.md, "Ascending keys appended to the
     * rightmost leaf, a delete next to the last"). Null with {@link #frames}.
     */
    private final RefusalQueue queue;

    private final Addresses addresses;
    private final Path dir;
    private final dev.quickstore.core.remote.RemotePages server; // null: the embedded store

    Refusals(MappedFrames frames, Addresses addresses, Path dir, dev.quickstore.core.remote.RemotePages server) {
        this.frames = frames;
        this.queue = frames == null ? null : frames.arena().refusals();
        this.addresses = addresses;
        this.dir = dir;
        this.server = server;
    }

    /** Whether a refusal is waiting (one acquire load). */
    boolean pending() {
        return queue != null && queue.hasPending();
    }

    /** Takes one pending refusal: dooms {@code current} (if any) and throws the typed form. */
    void take(Transaction current) {
        if (frames == null) {
            return;
        }
        try {
            queue.checkPending();
        } catch (FaultRefusedException e) {
            frames.noteRefused(e.frame());
            long page = e.address() >= addresses.arenaBase() ? addresses.pageOf(e.address()) : e.page();
            RuntimeException typed = typed(e, page, current != null);
            record(e, page, true);
            if (current != null) {
                current.doom(typed);
            }
            throw typed;
        }
    }

    /**
     * The exception of a refusal: for a page server's client, {@link dev.quickstore.core.remote.PageLockException}
     * when the server refused the page's lock (deadlock or timeout) and {@link
     * dev.quickstore.core.remote.ServerUnavailableException} when the connection broke; otherwise {@link
     * PageFaultRefusedException}.
     */
    private RuntimeException typed(FaultRefusedException e, long page, boolean inTransaction) {
        if (server != null && e.reason() == dev.quickstore.mmu.RefusalReason.LOCK) {
            return new dev.quickstore.core.remote.PageLockException(
                    "page server " + dir + " refused the lock of page " + page + " ("
                            + (e.errno() == 35 ? "deadlock" : "lock wait timed out") + "); the transaction can only"
                            + " be aborted - retry it",
                    page,
                    e);
        }
        if (server != null && !server.connected()) {
            return new dev.quickstore.core.remote.ServerUnavailableException(
                    "page server " + dir + " is unavailable: reading page " + page + " was refused (" + e.getMessage()
                            + "); connect again",
                    e);
        }
        return new PageFaultRefusedException(e, page, dir.toString(), inTransaction);
    }

    /** A {@link RefusedFaultEvent} if a recording wants it. */
    private void record(FaultRefusedException e, long page, boolean thrown) {
        if (!Recorder.initialized() || !RefusedFaultEvent.enabled()) {
            return;
        }
        RefusedFaultEvent ev = new RefusedFaultEvent();
        if (ev.shouldCommit()) {
            ev.store = dir.toString();
            ev.page = page;
            ev.address = e.address();
            ev.reason = e.reason().name();
            ev.errno = e.errno();
            ev.thrown = thrown;
            ev.commit();
        }
    }

    /** Drops the refusals still pending when a transaction ends by abort (its work is discarded anyway). */
    void discard() {
        for (int k = 0; k < 4096 && pending(); k++) {
            try {
                queue.checkPending();
            } catch (FaultRefusedException e) {
                frames.noteRefused(e.frame()); // belongs to the transaction being aborted
                record(e, e.address() >= addresses.arenaBase() ? addresses.pageOf(e.address()) : e.page(), false);
            }
        }
    }

    /** The application view leaves the transaction: any fault on it is refused from now on. */
    void endViewTransaction() {
        if (frames != null) {
            frames.arena().transaction(false);
        }
    }
}
