package dev.quickstore.server;

import dev.quickstore.core.ServedStore;
import dev.quickstore.core.Store;
import dev.quickstore.core.remote.CommitMessages;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The single server's commit path: group commit on one commit thread. The thread takes the commits queued
 * meanwhile (at most {@value #GROUP}), validates and applies each in order through {@link
 * ServedStore#commitPageWrites(List, List, boolean)} (a later one validates against the earlier ones' effects), forces
 * the log once, and only then completes each commit's future (in order). If the force fails, no commit of the
 * group is acknowledged (each completes with the failure; the store's handle is poisoned and recovery decides
 * which of them committed).
 */
public final class GroupCommitPath implements CommitPath {
    /** At most this many commits share one log force. */
    static final int GROUP = 64;

    private record Queued(CommitMessages.Commit commit, CompletableFuture<CommitMessages.Applied> done) {}

    private final ServedStore store;
    private final Consumer<String> log;
    private final LinkedBlockingQueue<Queued> pending = new LinkedBlockingQueue<>();
    private final AtomicLong logForces = new AtomicLong();
    private final Thread committer;
    private volatile boolean closed;

    /** A path over {@code store}, logging one line per failure to {@code log}; its thread starts at once. */
    public GroupCommitPath(Store store, Consumer<String> log) {
        this.store = ServedStore.of(store);
        this.log = log;
        this.committer = Thread.ofPlatform().daemon().name("qs-commit").start(this::commitLoop);
    }

    @Override
    public CompletableFuture<CommitMessages.Applied> commit(CommitMessages.Commit commit) {
        CompletableFuture<CommitMessages.Applied> done = new CompletableFuture<>();
        pending.add(new Queued(commit, done));
        return done;
    }

    /** Log forces so far (one per group that applied anything). */
    long logForces() {
        return logForces.get();
    }

    @Override
    public void describe(Map<String, String> status) {
        status.put("logForces", Long.toString(logForces.get()));
    }

    private void commitLoop() {
        List<Queued> batch = new ArrayList<>();
        while (!closed) {
            try {
                Queued first = pending.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.clear();
                batch.add(first);
                pending.drainTo(batch, GROUP - 1);
            } catch (InterruptedException e) {
                return;
            }
            List<Object> outcomes = new ArrayList<>(batch.size());
            boolean anyApplied = false;
            for (Queued q : batch) {
                try {
                    outcomes.add(store.commitPageWrites(
                            q.commit().reads(), q.commit().writes(), false));
                    anyApplied = true;
                } catch (RuntimeException e) {
                    outcomes.add(e); // a conflict, a refused commit, or a failure of the store
                }
            }
            if (anyApplied) {
                try {
                    store.forceLog();
                    logForces.incrementAndGet();
                } catch (RuntimeException e) {
                    log.accept(
                            "forcing the log failed: " + e.getMessage() + "; no commit of this group is acknowledged");
                    for (int i = 0; i < outcomes.size(); i++) {
                        if (outcomes.get(i) instanceof CommitMessages.Applied) {
                            outcomes.set(i, e);
                        }
                    }
                }
            }
            for (int i = 0; i < batch.size(); i++) {
                if (outcomes.get(i) instanceof CommitMessages.Applied a) {
                    batch.get(i).done().complete(a);
                } else {
                    batch.get(i).done().completeExceptionally((Throwable) outcomes.get(i));
                }
            }
        }
    }

    /** Stops the commit thread once it has finished the group it is applying (it sees the flag within 200 ms). */
    @Override
    public void close() {
        closed = true;
        try {
            committer.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Queued q = pending.poll(); q != null; q = pending.poll()) {
            q.done().completeExceptionally(new IllegalStateException("the page server is stopping"));
        }
    }
}
