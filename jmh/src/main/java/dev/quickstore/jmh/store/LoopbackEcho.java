package dev.quickstore.jmh.store;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * The baseline of {@link RemoteFaultBenchmark}: a second process that answers every 32-byte request with a
 * 32-byte header and one page, and does nothing else - the loopback round trip a page fault served by a
 * server cannot avoid. Prints {@code listening PORT}, serves one connection, exits when it closes.
 */
public final class LoopbackEcho {
    private LoopbackEcho() {}

    public static void main(String[] args) throws IOException {
        int answer = 32 + Integer.parseInt(args[0]);
        try (ServerSocket ss = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            System.out.println("listening " + ss.getLocalPort());
            System.out.flush();
            try (Socket s = ss.accept()) {
                s.setTcpNoDelay(true);
                DataInputStream in = new DataInputStream(s.getInputStream());
                OutputStream out = s.getOutputStream();
                byte[] request = new byte[32];
                byte[] reply = new byte[answer];
                while (true) {
                    try {
                        in.readFully(request);
                    } catch (java.io.EOFException e) {
                        return;
                    }
                    out.write(reply);
                }
            }
        }
    }
}
