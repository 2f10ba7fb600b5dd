package dev.quickstore.replication;

import dev.quickstore.core.remote.RemotePages;
import dev.quickstore.core.remote.ServerUnavailableException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Connects a client to the leader of a replication group: tries the members in turn; a member that is not the
 * leader refuses the client naming the leader ({@link ReplicatedCommitPath#refusal}), which is tried next. Rounds
 * repeat (100 ms apart) until a member accepts or {@code within} has passed, then {@link NoLeaderException}
 * names what each member said. After a failover the client's transaction has thrown {@code
 * ServerUnavailableException} (its cache is gone with its connection); it connects again here and retries.
 */
public final class GroupClient {
    private static final Pattern LEADER = Pattern.compile("the leader is (qs://[^\\s;,]+)");

    private GroupClient() {}

    /**
     * A client of the group's leader.
     *
     * @param members the members' client URIs ({@code qs://HOST:PORT})
     * @throws NoLeaderException if no member accepted within {@code within}
     */
    public static RemotePages connect(List<String> members, Path secret, int timeoutMs, Duration within)
            throws IOException {
        return connect(members, within, uri -> RemotePages.connect(uri, secret, timeoutMs));
    }

    /** Opens a client of one member's page server, e.g. {@code PersistentStore.connect(uri, secret, types)}. */
    @FunctionalInterface
    public interface Connector<T> {
        /**
         * @throws ServerUnavailableException or IOException if the member refuses (not the leader) or is down
         */
        T connect(String uri) throws IOException;
    }

    /**
     * A client of the group's leader made by {@code connector} (the object API's {@code PersistentStore.connect},
     * or any other client of a page server): the members tried as {@link #connect(List, Path, int, Duration)}
     * does.
     *
     * @throws NoLeaderException if no member accepted within {@code within}
     */
    public static <T> T connect(List<String> members, Duration within, Connector<T> connector) throws IOException {
        long deadline = System.nanoTime() + within.toNanos();
        Map<String, String> said = new LinkedHashMap<>();
        Exception last = null;
        while (true) {
            List<String> order = new ArrayList<>(members);
            for (int i = 0; i < order.size(); i++) {
                String uri = order.get(i);
                try {
                    return connector.connect(uri);
                } catch (ServerUnavailableException | IOException e) {
                    last = e; // refused (not the leader), or not answering (down)
                    said.put(uri, String.valueOf(e.getMessage()));
                    Matcher m = LEADER.matcher(String.valueOf(e.getMessage()));
                    if (m.find() && !order.subList(0, i + 1).contains(m.group(1))) {
                        order.add(i + 1, m.group(1)); // the redirect is tried next
                    }
                }
            }
            if (System.nanoTime() > deadline) {
                throw new NoLeaderException(
                        "no leader of the replication group accepted the client within " + within.toMillis()
                                + " ms; the members said: " + said,
                        last);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new NoLeaderException("interrupted while looking for the group's leader", e);
            }
        }
    }
}
