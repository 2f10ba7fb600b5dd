package dev.quickstore.core.error;

import java.io.IOException;
import java.io.Serial;

/**
 * A storage operation failed (the kernel's EIO, ENOSPC, ...): which operation, on which file, at which byte
 * offset and, in the volume, which page. The kernel's own message ("Input/output error") names none of them.
 * An {@link IOException}, so it poisons the store handle like any failed I/O (fail-stop): the message reaches
 * the user inside the {@link StoreException} the handle throws, e.g. {@code fsync of db/log/0000000000000000.wal
 * failed: Input/output error} or {@code write of db/volume.qs page 3 (offset 24576) failed: No space left on
 * device}.
 */
public class StorageIOException extends IOException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String file;
    private final String operation;
    private final long offset;
    private final long pageId;

    /**
     * @param offset the byte offset in the file, or -1 for operations on the whole file (fsync, replace, delete)
     * @param length bytes involved, or -1 when not meaningful
     * @param pageId the page, or -1 outside page-granular files
     */
    public StorageIOException(String operation, String file, long offset, long length, long pageId, IOException cause) {
        super(
                operation + " of " + file + (pageId >= 0 ? " page " + pageId : "")
                        + (offset >= 0
                                ? (pageId >= 0 ? " (" : " at ") + "offset " + offset
                                        + (length >= 0 ? ", " + length + " bytes" : "")
                                        + (pageId >= 0 ? ")" : "")
                                : "")
                        + " failed: " + (cause.getMessage() != null ? cause.getMessage() : cause.toString()),
                cause);
        this.file = file;
        this.operation = operation;
        this.offset = offset;
        this.pageId = pageId;
    }

    public String file() {
        return file;
    }

    /** read, write, fsync, truncate, replace, delete, ... */
    public String operation() {
        return operation;
    }

    /** The byte offset, or -1 for an operation on the whole file. */
    public long offset() {
        return offset;
    }

    /** The page id, or -1 when the operation was not on one page. */
    public long pageId() {
        return pageId;
    }

    /** The same failure with the page named (the volume knows its page size; the file layer does not). */
    public StorageIOException withPage(long page) {
        IOException kernel = getCause() instanceof IOException c ? c : this;
        return new StorageIOException(operation, file, offset, -1, page, kernel);
    }
}
