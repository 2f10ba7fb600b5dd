package dev.quickstore.core.remote;

import dev.quickstore.core.error.StoreException;
import java.lang.foreign.MemorySegment;

/**
 * One optimistic transaction of a page-server client ({@link RemotePages#begin}): reads and writes go through
 * {@link #view()} with plain loads and stores (faults bring pages from the server or the cache; a write fault
 * keeps a pre-image), and {@link #commit} ships the diffs with the read set for validation. Nothing is
 * visible to other clients before the server acknowledged the commit, which is durable at the server by then.
 *
 * <p>Rules: use the view only between begin and commit or abort, from threads that stop storing before
 * commit is called. A conflict ({@link TransactionConflictException}) or an unavailable server ({@link
 * ServerUnavailableException}) ends the transaction with nothing applied (for the latter: unless the commit
 * reached the server, which a reconnecting client learns by reading the data).
 */
public final class RemoteTransaction implements AutoCloseable {
    private final RemotePages client;
    private final long seq;
    private boolean done;

    RemoteTransaction(RemotePages client, long seq) {
        this.client = client;
        this.seq = seq;
    }

    /** This client's sequence number of the transaction (1, 2, ...). */
    public long seq() {
        return seq;
    }

    /** The client's view of the store (the same segment as {@link RemotePages#view()}). */
    public MemorySegment view() {
        check();
        return client.view();
    }

    /**
     * Validates and commits at the server.
     *
     * @return the commit LSN at the server (0 for a transaction that wrote nothing)
     * @throws TransactionConflictException if another client's commit changed a page this one read or wrote
     * @throws ServerUnavailableException if the server could not be reached or did not answer
     */
    public long commit() {
        check();
        done = true;
        client.endAccess();
        return client.commit(this);
    }

    /** Rolls the transaction back (its changes never left this process). */
    public void abort() {
        if (!done) {
            done = true;
            client.abort(this);
        }
    }

    /** Aborts unless committed. */
    @Override
    public void close() {
        abort();
    }

    private void check() {
        if (done) {
            throw new StoreException("transaction " + seq + " has ended");
        }
    }
}
