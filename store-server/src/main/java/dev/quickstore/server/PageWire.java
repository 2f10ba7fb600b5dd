package dev.quickstore.server;

import io.netty.buffer.ByteBuf;
import java.util.zip.CRC32C;

/**
 * The page requests of a client's fault path and the server's answers, as the server reads and writes them.
 * The format is defined by {@code store-native/src/main/c/qs_wire.h} (the client's side is C, in the fault
 * path) and documented in docs/formats.md, "Page server: page requests"; this class is its Java half and
 * must stay byte-for-byte in step with it (PageServerTest runs real faults against it).
 *
 * <pre>
 *   request  (32 bytes): 0 u32 "QSPQ"  4 u8 version 1  5 u8 type 1 (READ_PAGE) or 2 (LOCK_PAGE)
 *                        6 u16 lock mode (0 none, 1 shared, 2 exclusive)
 *                        8 u64 request id  16 u64 page  24 u32 bytes wanted  28 u32 CRC32C of 0..27
 *   response (32 bytes + payload): 0 u32 "QSPR"  4 u8 version 1  5 u8 status  6 u16 0
 *                        8 u64 request id  16 u64 page  24 u32 payload bytes  28 u32 CRC32C of 0..27 + payload
 * </pre>
 */
final class PageWire {
    private PageWire() {}

    static final int REQUEST_MAGIC = 0x51505351; // "QSPQ"
    static final int RESPONSE_MAGIC = 0x52505351; // "QSPR"
    static final int VERSION = 1;
    static final int HEADER = 32;
    static final int READ_PAGE = 1;
    static final int LOCK_PAGE = 2;

    static final int OK = 0;
    static final int NO_SUCH_PAGE = 1;
    static final int DENIED = 2;
    static final int ERROR = 3;
    static final int DEADLOCK = 4;
    static final int LOCK_TIMEOUT = 5;

    /** A checked page request: READ_PAGE or LOCK_PAGE, with the lock mode (0 none, 1 shared, 2 exclusive). */
    record Request(int type, int mode, long id, long page, int bytesWanted) {}

    /**
     * Decodes a request header (all 32 bytes readable at {@code in}'s reader index, consumed).
     *
     * @throws dev.quickstore.core.remote.SessionFrame.ProtocolException naming the wrong field
     */
    static Request decode(ByteBuf in) throws dev.quickstore.core.remote.SessionFrame.ProtocolException {
        byte[] h = new byte[HEADER];
        in.readBytes(h);
        ByteBuf b = io.netty.buffer.Unpooled.wrappedBuffer(h);
        if (b.getIntLE(0) != REQUEST_MAGIC) {
            throw new dev.quickstore.core.remote.SessionFrame.ProtocolException("page request offset 0: magic 0x"
                    + Integer.toHexString(b.getIntLE(0)) + ", expected 0x51505351 (QSPQ)");
        }
        if (h[4] != VERSION) {
            throw new dev.quickstore.core.remote.SessionFrame.ProtocolException(
                    "page request offset 4: version " + h[4] + ", expected " + VERSION);
        }
        CRC32C crc = new CRC32C();
        crc.update(h, 0, 28);
        if ((int) crc.getValue() != b.getIntLE(28)) {
            throw new dev.quickstore.core.remote.SessionFrame.ProtocolException(
                    "page request offset 28: checksum 0x" + Integer.toHexString(b.getIntLE(28)) + ", expected 0x"
                            + Integer.toHexString((int) crc.getValue()));
        }
        if (h[5] != READ_PAGE && h[5] != LOCK_PAGE) {
            throw new dev.quickstore.core.remote.SessionFrame.ProtocolException(
                    "page request offset 5: type " + h[5] + ", expected 1 (READ_PAGE) or 2 (LOCK_PAGE)");
        }
        int mode = b.getShortLE(6);
        if (mode < 0 || mode > 2 || (h[5] == LOCK_PAGE && mode == 0)) {
            throw new dev.quickstore.core.remote.SessionFrame.ProtocolException(
                    "page request offset 6: lock mode " + mode + " for type " + h[5]);
        }
        return new Request(h[5], mode, b.getLongLE(8), b.getLongLE(16), b.getIntLE(24));
    }

    /** Writes a response to {@code out}: the header, then {@code payload} when the status is OK. */
    static void encode(ByteBuf out, Request r, int status, byte[] page) {
        byte[] payload = status == OK ? page : new byte[0];
        ByteBuf h = io.netty.buffer.Unpooled.buffer(HEADER);
        h.writeIntLE(RESPONSE_MAGIC).writeByte(VERSION).writeByte(status).writeShortLE(0);
        h.writeLongLE(r.id()).writeLongLE(r.page()).writeIntLE(payload.length);
        CRC32C crc = new CRC32C();
        crc.update(h.array(), 0, 28);
        crc.update(payload);
        h.writeIntLE((int) crc.getValue());
        out.writeBytes(h).writeBytes(payload);
    }
}
