package dev.quickstore.core.remote;

import dev.quickstore.core.error.StoreException;
import java.io.Serial;
import java.util.List;

/**
 * A client's transaction read or wrote pages that another client's commit changed after it read them
 * (backward validation at the server); nothing of it was applied. The pages are named with the version the
 * transaction read and the server's; they were dropped from the client's cache, so a retry reads them anew.
 */
public final class TransactionConflictException extends StoreException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final transient List<CommitMessages.Conflict> conflicts;

    public TransactionConflictException(String message, List<CommitMessages.Conflict> conflicts) {
        super(message);
        this.conflicts = List.copyOf(conflicts);
    }

    /** The pages that changed since the transaction read them. */
    public List<CommitMessages.Conflict> conflicts() {
        return conflicts;
    }

    /** The message for {@code conflicts}: "page 12 (read at LSN 4096, now 8192), ...". */
    public static String describe(List<CommitMessages.Conflict> conflicts) {
        StringBuilder b = new StringBuilder();
        int shown = 0;
        for (CommitMessages.Conflict c : conflicts) {
            if (shown++ == 8) {
                b.append(", ... (").append(conflicts.size()).append(" pages)");
                break;
            }
            if (b.length() > 0) {
                b.append(", ");
            }
            b.append("page ")
                    .append(c.page())
                    .append(" (read at LSN ")
                    .append(c.readLsn())
                    .append(", now ")
                    .append(c.currentLsn())
                    .append(')');
        }
        return b.toString();
    }
}
