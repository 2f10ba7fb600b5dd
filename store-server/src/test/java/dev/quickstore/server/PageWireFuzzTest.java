package dev.quickstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.quickstore.core.remote.SessionFrame;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * Coverage-guided fuzz target (Jazzer, issue 14) for the server's half of the page-request wire format
 * ({@link PageWire}, what a client's C fault path sends): a 32-byte request either decodes to a READ_PAGE or
 * LOCK_PAGE with a valid lock mode, whose response then carries its id and page, or raises {@link
 * SessionFrame.ProtocolException} naming the field. Each input is tried as it is and with its checksum
 * recomputed. The session frames of the same connections are fuzzed by store-core's {@code
 * SessionFramesFuzzTest}; {@link ProtocolFuzzTest} sends mutated frames to a real server.
 */
class PageWireFuzzTest {
    @FuzzTest(maxDuration = "10s")
    void pageRequest(byte[] data) {
        byte[] h = Arrays.copyOf(data, PageWire.HEADER);
        once(h);
        CRC32C c = new CRC32C();
        c.update(h, 0, 28);
        Unpooled.wrappedBuffer(h).setIntLE(28, (int) c.getValue());
        once(h);
    }

    private static void once(byte[] h) {
        ByteBuf in = Unpooled.wrappedBuffer(h);
        PageWire.Request r;
        try {
            r = PageWire.decode(in);
        } catch (SessionFrame.ProtocolException e) {
            assertTrue(e.getMessage().startsWith("page request offset "), e.getMessage());
            return;
        }
        assertEquals(0, in.readableBytes(), "the request is consumed");
        assertTrue(r.type() == PageWire.READ_PAGE || r.type() == PageWire.LOCK_PAGE);
        assertTrue(r.mode() >= 0 && r.mode() <= 2);
        ByteBuf out = Unpooled.buffer();
        PageWire.encode(out, r, PageWire.OK, new byte[8]);
        assertEquals(PageWire.HEADER + 8, out.readableBytes());
        assertEquals(r.id(), out.getLongLE(8));
        assertEquals(r.page(), out.getLongLE(16));
    }
}
