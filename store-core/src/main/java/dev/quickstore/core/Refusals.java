package dev.quickstore.core;

import dev.quickstore.core.buffer.Addresses;
import dev.quickstore.core.buffer.MappedFrames;
import dev.quickstore.core.error.PageFaultRefusedException;
import dev.quickstore.mmu.FaultRefusedException;
import java.nio.file.Path;

/**
 * Where refused faults reach Java (design notes section 2a): the data plane completes a refused access on a
 * scratch page and records the refusal; the store takes it at its API boundaries, turns it into a typed
 * {@link PageFaultRefusedException} naming the page, and dooms the running transaction so that nothing computed
 * from the scratch page's zeros can commit. Callers hold the store latch for {@link #take} and {@link #discard}.
 */
final class Refusals {
    private final MappedFrames frames; // null in EXPLICIT mode: nothing is ever refused
    private final Addresses addresses;
    private final Path dir;

    Refusals(MappedFrames frames, Addresses addresses, Path dir) {
        this.frames = frames;
        this.addresses = addresses;
        this.dir = dir;
    }

    /** Whether a refusal is waiting (one acquire load). */
    boolean pending() {
        return frames != null && frames.arena().refusals().hasPending();
    }

    /** Takes one pending refusal: dooms {@code current} (if any) and throws the typed form. */
    void take(Transaction current) {
        if (frames == null) {
            return;
        }
        try {
            frames.arena().refusals().checkPending();
        } catch (FaultRefusedException e) {
            frames.noteRefused(e.frame());
            long page = e.address() >= addresses.arenaBase() ? addresses.pageOf(e.address()) : e.page();
            PageFaultRefusedException typed = new PageFaultRefusedException(e, page, dir.toString(), current != null);
            if (current != null) {
                current.doom(typed);
            }
            throw typed;
        }
    }

    /** Drops the refusals still pending when a transaction ends by abort (its work is discarded anyway). */
    void discard() {
        for (int k = 0; k < 4096 && pending(); k++) {
            try {
                frames.arena().refusals().checkPending();
            } catch (FaultRefusedException e) {
                frames.noteRefused(e.frame()); // belongs to the transaction being aborted
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
