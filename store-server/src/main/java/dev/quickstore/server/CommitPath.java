package dev.quickstore.server;

import dev.quickstore.core.remote.CommitMessages;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * How the page server makes a client's commit durable: the seam between the sessions (which receive COMMIT
 * frames and answer them) and what validates, applies and forces. A single server uses {@link GroupCommitPath}
 * (validation and application through {@code ServedStore.commitPageWrites} on one commit thread, one log force per
 * group: the page server as it always was); a replica of a Raft group uses the replicated path of
 * store-replication, which acknowledges a commit only once its log entry is committed by the group's majority.
 *
 * <p>Contract: {@link #commit} completes with the applied commit only when it is durable (so the server may
 * answer COMMITTED), exceptionally with {@link dev.quickstore.core.remote.TransactionConflictException} when
 * validation failed (nothing applied), with {@link IllegalArgumentException} when the store refuses the commit
 * as malformed, and with any other exception when its outcome is not known to this server (the session is then
 * refused: the client's commit throws {@code ServerUnavailableException}). A client has at most one commit in
 * flight.
 */
public interface CommitPath extends AutoCloseable {
    /** Validates, applies and makes {@code commit} durable (see the class comment for how it completes). */
    CompletableFuture<CommitMessages.Applied> commit(CommitMessages.Commit commit);

    /**
     * Null when this server may accept clients and serve pages now; otherwise why not, one line that a client
     * shows (a replica that is not the group's leader names the leader's address).
     */
    default String refusal() {
        return null;
    }

    /** Adds this path's counters to the server's STATUS answer. */
    default void describe(Map<String, String> status) {}

    /** Stops taking commits; a commit not yet completed completes exceptionally or is finished first. */
    @Override
    void close();
}
