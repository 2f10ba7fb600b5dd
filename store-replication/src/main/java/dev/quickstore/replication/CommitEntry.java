package dev.quickstore.replication;

import dev.quickstore.core.remote.CommitMessages;
import dev.quickstore.core.remote.SessionFrame;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * One entry of the replicated (Raft) log: what every replica applies, in log order, to its own store
 * (docs/replication.md). Little-endian, format version 1:
 *
 * <pre>
 *   u32 magic 0x45525351 ("QSRE")
 *   u8  version (1)
 *   u8  kind: 1 COMMIT, 2 CHECKPOINT
 *   u16 zero
 *   u32 payload length N
 *   N   payload: COMMIT: a client's COMMIT payload as the page server received it ({@link CommitMessages}:
 *       the pages it read with their page LSNs, the pages it wrote with the LSN it read and the changed
 *       ranges); CHECKPOINT: empty
 *   u32 CRC32C of every byte before it
 * </pre>
 *
 * A COMMIT entry holds the client's commit before validation: every replica validates it against its own store
 * when it applies the entry, and since every replica applies the same entries in the same order to the same
 * initial state, every replica reaches the same verdict (applied, or a conflict naming the same pages). A
 * CHECKPOINT entry makes every replica checkpoint its store and keep a copy of it as the state machine's snapshot
 * at that log index ({@link ReplicaStore#snapshot}).
 */
public record CommitEntry(int kind, CommitMessages.Commit commit) {
    public static final int MAGIC = 0x45525351;
    public static final int VERSION = 1;
    public static final int COMMIT = 1;
    public static final int CHECKPOINT = 2;
    private static final int HEADER = 12;

    /** A COMMIT entry of a client's commit. */
    public static CommitEntry commit(CommitMessages.Commit c) {
        return new CommitEntry(COMMIT, c);
    }

    /** A CHECKPOINT entry. */
    public static CommitEntry checkpoint() {
        return new CommitEntry(CHECKPOINT, null);
    }

    public byte[] encode() {
        byte[] payload = kind == COMMIT ? CommitMessages.encodeCommit(commit) : new byte[0];
        ByteBuffer b = ByteBuffer.allocate(HEADER + payload.length + 4).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(MAGIC).put((byte) VERSION).put((byte) kind).putShort((short) 0).putInt(payload.length);
        b.put(payload);
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, HEADER + payload.length);
        b.putInt((int) crc.getValue());
        return b.array();
    }

    /**
     * The entry encoded in {@code bytes}.
     *
     * @throws SessionFrame.ProtocolException naming what is wrong: magic, version, kind, length, checksum, or the
     *     COMMIT payload
     */
    public static CommitEntry decode(byte[] bytes) throws SessionFrame.ProtocolException {
        if (bytes.length < HEADER + 4) {
            throw new SessionFrame.ProtocolException("replicated log entry of " + bytes.length + " bytes: too short");
        }
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int magic = b.getInt();
        if (magic != MAGIC) {
            throw new SessionFrame.ProtocolException(
                    "replicated log entry: magic " + String.format("0x%08x", magic) + ", not a QuickStore entry");
        }
        int version = b.get() & 0xff;
        if (version != VERSION) {
            throw new SessionFrame.ProtocolException(
                    "replicated log entry: version " + version + " (this build reads " + VERSION + ")");
        }
        int kind = b.get() & 0xff;
        b.getShort();
        int n = b.getInt();
        if (n < 0 || n != bytes.length - HEADER - 4) {
            throw new SessionFrame.ProtocolException("replicated log entry: payload length "
                    + Integer.toUnsignedString(n) + " in " + bytes.length + " bytes");
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, HEADER + n);
        int stored = b.getInt(HEADER + n);
        if (stored != (int) crc.getValue()) {
            throw new SessionFrame.ProtocolException("replicated log entry: checksum " + String.format("0x%08x", stored)
                    + ", computed " + String.format("0x%08x", (int) crc.getValue()));
        }
        return switch (kind) {
            case COMMIT -> {
                byte[] payload = new byte[n];
                b.get(payload);
                yield new CommitEntry(COMMIT, CommitMessages.decodeCommit(payload));
            }
            case CHECKPOINT -> {
                if (n != 0) {
                    throw new SessionFrame.ProtocolException(
                            "replicated CHECKPOINT entry with " + n + " payload bytes");
                }
                yield checkpoint();
            }
            default -> throw new SessionFrame.ProtocolException("replicated log entry: kind " + kind);
        };
    }
}
