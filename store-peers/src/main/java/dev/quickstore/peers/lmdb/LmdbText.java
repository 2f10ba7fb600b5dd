package dev.quickstore.peers.lmdb;

import java.nio.ByteBuffer;

/**
 * A document's or manual's text read in place from LMDB's memory map (zero-copy, as lmdbjava is used): the
 * text encoding of {@link LmdbRecords} at an offset of a record buffer. LMDB keeps such a buffer valid only
 * until the next write in the transaction or the transaction's end, so every access checks the store's write
 * epoch and fails with {@link IllegalStateException} instead of reading a page that may have been reused
 * (or unmapped, after the environment was closed).
 */
final class LmdbText implements CharSequence {
    private final LmdbOo7Store store;
    private final long epoch;
    private final ByteBuffer record;
    private final int chars; // offset of the first char
    private final int length;
    private final boolean latin1;

    LmdbText(LmdbOo7Store store, long epoch, ByteBuffer record, int offset) {
        this.store = store;
        this.epoch = epoch;
        this.record = record;
        this.latin1 = record.get(offset) == 0;
        this.length = record.getInt(offset + 1);
        this.chars = offset + 5;
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public char charAt(int index) {
        if (store.env.epoch() != epoch) {
            throw new IllegalStateException("text read after a write or after its LMDB transaction ended");
        }
        if (index < 0 || index >= length) {
            throw new IndexOutOfBoundsException("index " + index + ", length " + length);
        }
        return latin1 ? (char) (record.get(chars + index) & 0xff) : record.getChar(chars + 2 * index);
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return toString().substring(start, end);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            sb.append(charAt(i));
        }
        return sb.toString();
    }
}
