package dev.quickstore.core.remote;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The payload of a HELLO frame ({@link SessionFrame}): {@code u32} process id, {@code u8} role (0 control, 1
 * data), {@code u64} session (the control connection's session id for a data connection, else 0), {@code u16}
 * name length, the client's name (UTF-8). A client opens its control connection first (commits,
 * invalidations; Java) and then its data connection (page requests from the fault path; C), which joins the
 * control connection's session.
 */
public record Hello(int pid, int role, long session, String name) {
    public static final int CONTROL = 0;
    public static final int DATA = 1;

    public Hello {
        if (role != CONTROL && role != DATA) {
            throw new IllegalArgumentException("role " + role);
        }
    }

    public byte[] encode() {
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        if (n.length > 1000) {
            n = java.util.Arrays.copyOf(n, 1000);
        }
        return ByteBuffer.allocate(15 + n.length)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putInt(pid)
                .put((byte) role)
                .putLong(session)
                .putShort((short) n.length)
                .put(n)
                .array();
    }

    public static Hello decode(byte[] payload) throws SessionFrame.ProtocolException {
        if (payload.length < 15) {
            throw new SessionFrame.ProtocolException("HELLO payload of " + payload.length + " bytes, at least 15");
        }
        ByteBuffer b = ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN);
        int pid = b.getInt();
        int role = b.get();
        long session = b.getLong();
        int len = Short.toUnsignedInt(b.getShort());
        if (role != CONTROL && role != DATA) {
            throw new SessionFrame.ProtocolException("HELLO offset 4: role " + role + ", expected 0 or 1");
        }
        if (len != b.remaining()) {
            throw new SessionFrame.ProtocolException(
                    "HELLO offset 13: name of " + len + " bytes, " + b.remaining() + " follow");
        }
        byte[] n = new byte[len];
        b.get(n);
        return new Hello(pid, role, session, new String(n, StandardCharsets.UTF_8));
    }
}
