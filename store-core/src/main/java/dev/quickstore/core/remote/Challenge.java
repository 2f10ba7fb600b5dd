package dev.quickstore.core.remote;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.UUID;

/**
 * The payload of a CHALLENGE frame ({@link SessionFrame}): the nonce the client must prove it can sign, and
 * what the client needs to map the store (page size, page count, preferred arena base, store id).
 */
public record Challenge(byte[] nonce, int pageSize, long pageCount, long arenaBase, UUID storeId) {
    public static final int NONCE = 32;
    static final int SIZE = NONCE + 4 + 8 + 8 + 16;

    public Challenge {
        if (nonce.length != NONCE) {
            throw new IllegalArgumentException("nonce of " + nonce.length + " bytes, expected " + NONCE);
        }
    }

    public byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN);
        b.put(nonce).putInt(pageSize).putLong(pageCount).putLong(arenaBase);
        b.putLong(storeId.getMostSignificantBits()).putLong(storeId.getLeastSignificantBits());
        return b.array();
    }

    public static Challenge decode(byte[] payload) throws SessionFrame.ProtocolException {
        if (payload.length != SIZE) {
            throw new SessionFrame.ProtocolException(
                    "CHALLENGE payload of " + payload.length + " bytes, expected " + SIZE);
        }
        ByteBuffer b = ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN);
        byte[] n = new byte[NONCE];
        b.get(n);
        int ps = b.getInt();
        if (Integer.bitCount(ps) != 1 || ps < 4096 || ps > 65536) {
            throw new SessionFrame.ProtocolException(
                    "CHALLENGE page size " + ps + ", expected a power of two in 4096..65536");
        }
        long pages = b.getLong();
        long base = b.getLong();
        long hi = b.getLong();
        long lo = b.getLong();
        if (pages < 1) {
            throw new SessionFrame.ProtocolException("CHALLENGE page count " + pages);
        }
        return new Challenge(n, ps, pages, base, new UUID(hi, lo));
    }
}
