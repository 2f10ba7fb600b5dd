package dev.quickstore.server;

import dev.quickstore.core.remote.SessionFrame;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Cuts a connection's byte stream into frames: {@link SessionFrame}s (magic "QSPS", the handshake) and page
 * requests ({@link PageWire.Request}, magic "QSPQ"). A header is read whole before anything is decided; a
 * session frame's payload is bounded before it is awaited - {@value SessionFrame#MAX_PAYLOAD} bytes until
 * the connection is an authenticated control connection, then a COMMIT's own bound - so no stranger can make
 * the server buffer more than that. A malformed frame is a {@link
 * SessionFrame.ProtocolException}, which the session handler answers by closing the connection.
 */
final class FrameDecoder extends ByteToMessageDecoder {
    /** The payload bound: the handshake's until the connection is an authenticated control connection. */
    private volatile int maxPayload = SessionFrame.MAX_PAYLOAD;

    /** After WELCOME on a control connection: COMMITs may be as large as their own bound. */
    void allowCommits() {
        maxPayload = SessionFrame.MAX_COMMIT_PAYLOAD;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        while (in.readableBytes() >= SessionFrame.HEADER) {
            int magic = in.getIntLE(in.readerIndex());
            if (magic == PageWire.REQUEST_MAGIC) {
                out.add(PageWire.decode(in));
                continue;
            }
            byte[] header = new byte[SessionFrame.HEADER];
            in.getBytes(in.readerIndex(), header);
            int len = SessionFrame.payloadLength(header); // throws for a wrong magic, version, type or length
            if (len > maxPayload) {
                throw new SessionFrame.ProtocolException("session frame offset 24: payload of " + len
                        + " bytes before the connection may commit (at most " + maxPayload + ")");
            }
            if (in.readableBytes() < SessionFrame.HEADER + len) {
                return; // wait for the rest (at most MAX_PAYLOAD more bytes)
            }
            in.skipBytes(SessionFrame.HEADER);
            byte[] payload = new byte[len];
            in.readBytes(payload);
            out.add(SessionFrame.decode(header, payload));
        }
    }
}
