package dev.quickstore.replication;

import dev.quickstore.core.remote.CommitMessages;
import dev.quickstore.core.remote.SessionFrame;
import dev.quickstore.core.remote.TransactionConflictException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * What applying a {@link CommitEntry} gave, as the state machine answers the replica that submitted it (Ratis
 * carries it back in the client reply; it is never stored). Version 1: {@code u8 version, u8 kind}, then for
 * APPLIED a COMMITTED payload ({@link CommitMessages#encodeCommitted}, sequence 0), for CONFLICT a CONFLICT payload,
 * for REFUSED the UTF-8 reason the store gave (a malformed commit: nothing applied), for CHECKPOINTED nothing.
 */
public final class EntryReply {
    public static final int VERSION = 1;
    public static final int APPLIED = 1;
    public static final int CONFLICT = 2;
    public static final int REFUSED = 3;
    public static final int CHECKPOINTED = 4;

    private EntryReply() {}

    public static byte[] applied(CommitMessages.Applied a) {
        return with(APPLIED, CommitMessages.encodeCommitted(0, a));
    }

    public static byte[] conflict(TransactionConflictException e) {
        return with(CONFLICT, CommitMessages.encodeConflict(0, e.conflicts()));
    }

    public static byte[] refused(String reason) {
        return with(REFUSED, reason.getBytes(StandardCharsets.UTF_8));
    }

    public static byte[] checkpointed() {
        return with(CHECKPOINTED, new byte[0]);
    }

    private static byte[] with(int kind, byte[] payload) {
        byte[] b = new byte[2 + payload.length];
        b[0] = VERSION;
        b[1] = (byte) kind;
        System.arraycopy(payload, 0, b, 2, payload.length);
        return b;
    }

    /**
     * The outcome in {@code reply}: a {@link CommitMessages.Applied}, a {@link TransactionConflictException}, an
     * {@link IllegalArgumentException} (refused), or {@link Boolean#TRUE} for a checkpoint.
     */
    public static Object decode(byte[] reply) throws SessionFrame.ProtocolException {
        if (reply.length < 2 || reply[0] != VERSION) {
            throw new SessionFrame.ProtocolException("replicated commit reply of " + reply.length + " bytes, version "
                    + (reply.length == 0 ? "none" : Integer.toString(reply[0] & 0xff)));
        }
        byte[] payload = Arrays.copyOfRange(reply, 2, reply.length);
        long[] seq = new long[1];
        return switch (reply[1]) {
            case APPLIED -> CommitMessages.decodeCommitted(payload, seq);
            case CONFLICT -> {
                var conflicts = CommitMessages.decodeConflict(payload, seq);
                yield new TransactionConflictException(
                        "the transaction read pages that another client's commit changed since: "
                                + TransactionConflictException.describe(conflicts),
                        conflicts);
            }
            case REFUSED -> new IllegalArgumentException(new String(payload, StandardCharsets.UTF_8));
            case CHECKPOINTED -> Boolean.TRUE;
            default -> throw new SessionFrame.ProtocolException("replicated commit reply of kind " + reply[1]);
        };
    }
}
