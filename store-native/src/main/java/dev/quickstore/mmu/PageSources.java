package dev.quickstore.mmu;

import java.lang.foreign.Arena;
import java.nio.file.Path;

/**
 * The page sources of an arena ({@code qs_source.c}, {@code qs_socket.c}): where the fault path reads a reserved
 * frame's page from - a file read with {@code pread}, or a page server asked over a socket. A source's id is what
 * {@link MappedArena#reserve} names. One per {@link MappedArena} ({@link MappedArena#sources()}).
 */
public final class PageSources {
    private final long handle;

    PageSources(long handle) {
        this.handle = handle;
    }

    /**
     * Adds a page source reading {@code file} (opened read-only by the library), page p at
     * {@code baseOffset + p * frameSize}. Returns its id for {@link MappedArena#reserve}.
     */
    public int addFileSource(Path file, long baseOffset) {
        return Downcall.checkedInt("qs_source_open_file", () -> "opening page source " + file, () -> {
            try (Arena tmp = Arena.ofConfined()) {
                return (int)
                        NativeCalls.SourceOpenFile.H.invokeExact(handle, tmp.allocateFrom(file.toString()), baseOffset);
            }
        });
    }

    /**
     * Adds a page-server source (qs_socket.c): faults on frames reserved with it ask the server over {@code
     * connection}, which must be connected and authenticated, and which the arena owns from now on (closed
     * with the arena). Each request must be answered within {@code timeoutMs}, or the fault is refused and
     * the source is {@linkplain #sourceBroken broken}.
     */
    public int addSocketSource(PageServerSocket connection, int timeoutMs) {
        int fd = connection.handOver();
        int id;
        try {
            id = Downcall.checkedInt("qs_source_open_socket", () -> "adding a page-server source", () ->
                    (int) NativeCalls.SourceOpenSocket.H.invokeExact(handle, fd, timeoutMs));
        } catch (RuntimeException e) {
            PageServerSocket.closeFd(fd);
            throw e;
        }
        return id;
    }

    /**
     * Whether page-server source {@code id} broke (a timeout, a closed connection or a protocol error): every
     * later fault on its frames is refused until frames are reserved with a new source.
     */
    public boolean sourceBroken(int id) {
        return Downcall.checkedInt("qs_source_broken", () -> "reading page-server source " + id, () ->
                        (int) NativeCalls.SourceBroken.H.invokeExact(handle, id))
                != 0;
    }
}
