package dev.quickstore.core.error;

import java.io.Serial;

/**
 * Damaged or foreign bytes in a store file. The message names the file, page id, byte offset, the
 * field, and the expected and actual values, e.g. {@code db/volume.qs page 0 offset 124: header
 * checksum (CRC32C) expected 0x1234abcd, found 0x00000000}.
 */
public class StoreFormatException extends StoreException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String file;
    private final long pageId;
    private final long offset;

    public StoreFormatException(String file, long pageId, long offset, String field, String expected, String actual) {
        super(file + (pageId >= 0 ? " page " + pageId : "") + " offset " + offset + ": " + field + " expected "
                + expected + ", found " + actual);
        this.file = file;
        this.pageId = pageId;
        this.offset = offset;
    }

    public String file() {
        return file;
    }

    /** The page id, or -1 when the damaged bytes are not in a page (log records, control file). */
    public long pageId() {
        return pageId;
    }

    public long offset() {
        return offset;
    }
}
