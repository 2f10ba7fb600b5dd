package dev.quickstore.core.remote;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.quickstore.core.verify.VerifyReport;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * Coverage-guided fuzz target (Jazzer, issue 14) for the page server's session frames and every payload
 * decoder behind them ({@link SessionFrame}, {@link Hello}, {@link Challenge}, {@link CommitMessages},
 * {@link VerifyMessages}, {@link ServerStatus}): the input is one frame as it arrives on a connection (32-byte
 * header, then the payload); the header is checked, the frame decoded and its payload decoded by its type, as
 * the server and the client do. The only allowed failure is {@link SessionFrame.ProtocolException} (the
 * connection is then closed); a decoded frame and a decoded CHALLENGE, COMMIT, COMMITTED, CONFLICT or
 * INVALIDATE payload re-encode to the same bytes, the others decode again from their encoding. Each input is
 * tried as it is and with its length and checksum fields recomputed, so that mutations reach the payload
 * decoders. Seeds: real frames of every type ({@code SessionFramesFuzzTestInputs/}, written by {@code
 * FuzzSeedsTest}).
 */
public class SessionFramesFuzzTest {
    /** Public: {@code StoreFilesFuzzTest.everyDecoder} runs this target too. */
    public SessionFramesFuzzTest() {}

    @FuzzTest(maxDuration = "10s")
    public void sessionFrame(byte[] data) {
        frameOnce(data);
        if (data.length >= SessionFrame.HEADER) {
            byte[] sealed = data.clone();
            ByteBuffer b = ByteBuffer.wrap(sealed).order(ByteOrder.LITTLE_ENDIAN);
            b.putInt(24, sealed.length - SessionFrame.HEADER);
            CRC32C c = new CRC32C();
            c.update(sealed, 0, 28);
            c.update(sealed, SessionFrame.HEADER, sealed.length - SessionFrame.HEADER);
            b.putInt(28, (int) c.getValue());
            frameOnce(sealed);
        }
    }

    private static void frameOnce(byte[] data) {
        byte[] header = Arrays.copyOf(data, Math.min(data.length, SessionFrame.HEADER));
        byte[] payload = data.length > SessionFrame.HEADER
                ? Arrays.copyOfRange(data, SessionFrame.HEADER, data.length)
                : new byte[0];
        try {
            assertTrue(SessionFrame.payloadLength(header) >= 0);
            SessionFrame f = SessionFrame.decode(header, payload);
            assertArrayEquals(data, f.encode(), "frame round trip");
            payload(f);
        } catch (SessionFrame.ProtocolException e) {
            assertTrue(e.getMessage() != null && !e.getMessage().isEmpty());
        }
    }

    private static void payload(SessionFrame f) throws SessionFrame.ProtocolException {
        byte[] p = f.payload();
        long[] seq = new long[1];
        switch (f.type()) {
            case SessionFrame.HELLO -> {
                Hello h = Hello.decode(p);
                if (h.name().getBytes(StandardCharsets.UTF_8).length <= 1000) {
                    assertEquals(h, Hello.decode(h.encode()), "HELLO round trip");
                }
            }
            case SessionFrame.CHALLENGE ->
                assertArrayEquals(p, Challenge.decode(p).encode(), "CHALLENGE round trip");
            case SessionFrame.COMMIT ->
                assertArrayEquals(p, CommitMessages.encodeCommit(CommitMessages.decodeCommit(p)), "COMMIT round trip");
            case SessionFrame.COMMITTED -> {
                CommitMessages.Applied a = CommitMessages.decodeCommitted(p, seq);
                assertArrayEquals(p, CommitMessages.encodeCommitted(seq[0], a), "COMMITTED round trip");
            }
            case SessionFrame.CONFLICT -> {
                var c = CommitMessages.decodeConflict(p, seq);
                assertArrayEquals(p, CommitMessages.encodeConflict(seq[0], c), "CONFLICT round trip");
            }
            case SessionFrame.INVALIDATE ->
                assertArrayEquals(
                        p,
                        CommitMessages.encodeInvalidate(CommitMessages.decodeInvalidate(p)),
                        "INVALIDATE round trip");
            case SessionFrame.VERIFIED -> {
                VerifyReport r = VerifyMessages.decode(p);
                assertEquals(
                        r.toString(),
                        VerifyMessages.decode(VerifyMessages.encode(r)).toString());
            }
            case SessionFrame.STATUS -> {
                if (p.length > 0) {
                    ServerStatus.decode(ServerStatus.decode(p).encode());
                }
            }
            default -> {
                // PROOF, WELCOME, REFUSED, HEARTBEAT, VERIFY, ABORT, ABORTED: fixed sizes or plain text,
                // checked by their receiver
            }
        }
    }
}
