package dev.quickstore.core.remote;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * One frame of a page-server session's handshake (docs/formats.md, "Page server: session"); the one class
 * that encodes and decodes it, for the client here and for the server ({@code store-server}).
 *
 * <pre>
 *   header (32 bytes, little-endian; the same shape as a page request of qs_wire.h):
 *     0 u32 magic "QSPS" (0x53505351)   4 u8 version (1)   5 u8 type   6 u16 0
 *     8 u64 session id (0 until WELCOME)   16 u64 0 (reserved)   24 u32 payload bytes (at most 4096; a
 *     COMMIT at most 64 MiB)   28 u32 CRC32C of bytes 0..27 and the payload as one stream
 *   types and payloads:
 *     1 HELLO      client: {@link Hello} (process id, role: control or data connection, session, name)
 *     2 CHALLENGE  server: 32-byte nonce, u32 page size, u64 page count, u64 preferred arena base,
 *                  16-byte store creation id (most significant half first)
 *     3 PROOF      client: HMAC-SHA256(secret, "qs-auth-1" || nonce), 32 bytes
 *     4 WELCOME    server: u32 lease in ms, u8 concurrency control (0 optimistic, 1 page locking); the
 *                  header carries the session id. From here on a data connection
 *                  carries the page requests of qs_wire.h (magic "QSPQ"), sent by the client's fault path in
 *                  C, and a control connection the frames below
 *     5 REFUSED    server: the reason (UTF-8); the server closes the connection after it
 *     6 COMMIT     client: {@link CommitMessages#encodeCommit} (read set with versions, page diffs)
 *     7 COMMITTED  server: u64 transaction sequence, u64 commit LSN
 *     8 CONFLICT   server: {@link CommitMessages#encodeConflict} (the pages that changed since read)
 *     9 INVALIDATE server: u32 count, u64 page... (pages other clients committed; drop them before the
 *                  next transaction begins)
 *    10 HEARTBEAT  client (control): empty; at least one per lease, or the server ends the session
 *    11 STATUS     client (control): empty, a request; server: the answer, {@link ServerStatus}
 *    12 ABORT      client (control): u64 transaction sequence; the server releases the session's page locks
 *    13 ABORTED    server: u64 transaction sequence
 *    14 VERIFY     client (control): empty; the server checks its store (Store.verify)
 *    15 VERIFIED   server: {@link VerifyMessages} (counts and problems)
 * </pre>
 *
 * Invariants: a decoded frame had the magic, the version, a type in 1..15, a zero reserved field, a payload
 * within the bound, and a matching checksum; anything else is a {@link ProtocolException} naming the field.
 */
public record SessionFrame(int type, long sessionId, byte[] payload) {
    public static final int MAGIC = 0x53505351; // "QSPS" little-endian
    public static final int VERSION = 1;
    public static final int HEADER = 32;
    public static final int MAX_PAYLOAD = 4096;
    /** The bound of a COMMIT's payload (its page diffs). */
    public static final int MAX_COMMIT_PAYLOAD = 64 << 20;

    public static final int HELLO = 1;
    public static final int CHALLENGE = 2;
    public static final int PROOF = 3;
    public static final int WELCOME = 4;
    public static final int REFUSED = 5;
    public static final int COMMIT = 6;
    public static final int COMMITTED = 7;
    public static final int CONFLICT = 8;
    public static final int INVALIDATE = 9;
    public static final int HEARTBEAT = 10;
    public static final int STATUS = 11;
    public static final int ABORT = 12;
    public static final int ABORTED = 13;
    public static final int VERIFY = 14;
    public static final int VERIFIED = 15;
    static final int LAST_TYPE = VERIFIED;

    /** The largest payload a frame of {@code type} may carry. */
    public static int maxPayload(int type) {
        return type == COMMIT || type == STATUS || type == VERIFIED
                ? MAX_COMMIT_PAYLOAD
                : type == INVALIDATE ? MAX_COMMIT_PAYLOAD / 8 : MAX_PAYLOAD;
    }

    public SessionFrame {
        if (type < HELLO || type > LAST_TYPE) {
            throw new IllegalArgumentException("session frame type " + type);
        }
        if (payload.length > maxPayload(type)) {
            throw new IllegalArgumentException("session frame payload " + payload.length + " > " + maxPayload(type));
        }
    }

    /** The frame's bytes: header and payload. */
    public byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(HEADER + payload.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(MAGIC).put((byte) VERSION).put((byte) type).putShort((short) 0);
        b.putLong(sessionId).putLong(0).putInt(payload.length);
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, 28);
        crc.update(payload);
        b.putInt((int) crc.getValue()).put(payload);
        return b.array();
    }

    /**
     * Checks a header and returns its payload length (what to read next).
     *
     * @throws ProtocolException naming the first field that is wrong
     */
    public static int payloadLength(byte[] header) throws ProtocolException {
        ByteBuffer b = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
        if (header.length != HEADER) {
            throw new ProtocolException("session frame header of " + header.length + " bytes, expected " + HEADER);
        }
        int magic = b.getInt(0);
        if (magic != MAGIC) {
            throw new ProtocolException(
                    "session frame offset 0: magic 0x" + Integer.toHexString(magic) + ", expected 0x53505351 (QSPS)");
        }
        if (header[4] != VERSION) {
            throw new ProtocolException("session frame offset 4: version " + header[4] + ", expected " + VERSION);
        }
        if (header[5] < HELLO || header[5] > LAST_TYPE) {
            throw new ProtocolException("session frame offset 5: type " + header[5] + ", expected 1.." + LAST_TYPE);
        }
        if (b.getShort(6) != 0 || b.getLong(16) != 0) {
            throw new ProtocolException("session frame offsets 6 and 16: reserved fields are not zero");
        }
        int len = b.getInt(24);
        if (len < 0 || len > maxPayload(header[5])) {
            throw new ProtocolException("session frame offset 24: payload of " + Integer.toUnsignedString(len)
                    + " bytes, at most " + maxPayload(header[5]) + " for type " + header[5]);
        }
        return len;
    }

    /** Decodes a frame from its checked header and its payload. */
    public static SessionFrame decode(byte[] header, byte[] payload) throws ProtocolException {
        int len = payloadLength(header);
        if (payload.length != len) {
            throw new ProtocolException("session frame: payload of " + payload.length + " bytes, header says " + len);
        }
        ByteBuffer b = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
        CRC32C crc = new CRC32C();
        crc.update(header, 0, 28);
        crc.update(payload);
        int expected = (int) crc.getValue();
        int actual = b.getInt(28);
        if (expected != actual) {
            throw new ProtocolException("session frame offset 28: checksum 0x" + Integer.toHexString(actual)
                    + ", expected 0x" + Integer.toHexString(expected));
        }
        return new SessionFrame(header[5], b.getLong(8), payload);
    }

    /** A frame that is not what the protocol allows at this point (the connection is then closed). */
    public static final class ProtocolException extends java.io.IOException {
        @java.io.Serial
        private static final long serialVersionUID = 1L;

        public ProtocolException(String message) {
            super(message);
        }
    }
}
