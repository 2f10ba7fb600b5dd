package dev.quickstore.core.remote;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a page server says of itself and its clients ({@code qs clients}): the payload of a STATUS answer
 * ({@link SessionFrame}), UTF-8 lines of space-separated {@code key=value} pairs (values without spaces or
 * {@code =}): first {@code server ...} (counters), then one {@code session ...} line per connected client.
 */
public record ServerStatus(Map<String, String> server, List<Map<String, String>> sessions) {

    public byte[] encode() {
        StringBuilder b = new StringBuilder("server");
        server.forEach((k, v) -> b.append(' ').append(k).append('=').append(clean(v)));
        for (Map<String, String> s : sessions) {
            b.append("\nsession");
            s.forEach((k, v) -> b.append(' ').append(k).append('=').append(clean(v)));
        }
        return b.append('\n').toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String clean(String v) {
        return v.replace(' ', '_').replace('=', '_').replace('\n', '_');
    }

    public static ServerStatus decode(byte[] payload) throws SessionFrame.ProtocolException {
        Map<String, String> server = null;
        List<Map<String, String>> sessions = new ArrayList<>();
        for (String line : new String(payload, StandardCharsets.UTF_8).split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            String[] words = line.split(" ");
            if (words.length == 0 || words[0].isEmpty()) { // a line of spaces (found by fuzzing, issue 14)
                throw new SessionFrame.ProtocolException("STATUS: a line without a kind ('" + line + "')");
            }
            Map<String, String> kv = new LinkedHashMap<>();
            for (int i = 1; i < words.length; i++) {
                int eq = words[i].indexOf('=');
                if (eq <= 0) {
                    throw new SessionFrame.ProtocolException("STATUS: '" + words[i] + "' is not key=value");
                }
                kv.put(words[i].substring(0, eq), words[i].substring(eq + 1));
            }
            switch (words[0]) {
                case "server" -> server = kv;
                case "session" -> sessions.add(kv);
                default -> throw new SessionFrame.ProtocolException("STATUS: line '" + words[0] + " ...'");
            }
        }
        if (server == null) {
            throw new SessionFrame.ProtocolException("STATUS without a server line");
        }
        return new ServerStatus(server, sessions);
    }
}
