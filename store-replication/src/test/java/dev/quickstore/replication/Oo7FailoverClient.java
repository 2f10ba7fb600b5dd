package dev.quickstore.replication;

import dev.quickstore.api.ObjectPadding;
import dev.quickstore.core.remote.TransactionConflictException;
import dev.quickstore.oo7.mapped.MappedOo7Store;
import dev.quickstore.oo7.schema.AtomicPart;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One OO7 client process of {@link FailoverTest} (a process of its own: a client maps the store's arena at its
 * preferred base, once per process): {@code Oo7FailoverClient URI,URI,... SECRET CLIENT STOPFILE} connects to the
 * group's leader through the object API, runs {@link Oo7Updates} transactions until the stop file exists, and
 * reports on standard output, one line per event, what the test's model needs:
 *
 * <pre>
 *   ready                  connected the first time
 *   ack ID,ID,...          a commit acknowledged: the atomic parts it swapped
 *   conflict               a commit refused by validation (nothing applied)
 *   uncertain ID,...       a shared-module commit whose outcome is unknown (the leader died while committing)
 *   indoubt applied|lost   a private-module commit in doubt, resolved at the next leader (applied: an ack line
 *                          for it precedes this line)
 *   reconnect              the leader went away (a refused fault or commit); connecting again
 *   error MESSAGE          a check failed (a commit in doubt applied in part); the process exits 1
 *   done                   stopped
 * </pre>
 *
 * A private-module commit in doubt is resolved by reading its parts at the new leader: only this client writes its
 * private module, so each part holds either the x and y read before the swap (lost) or the swapped ones (applied).
 */
public final class Oo7FailoverClient {
    private Oo7FailoverClient() {}

    public static void main(String[] args) throws Exception {
        List<String> members = List.of(args[0].split(","));
        Path secret = Path.of(args[1]);
        int client = Integer.parseInt(args[2]);
        Path stop = Path.of(args[3]);
        PrintStream out = System.out;
        Oo7Updates updates = new Oo7Updates(client, 20, 18);
        MappedOo7Store store = null;
        Oo7Updates.Update doubt = null;
        boolean first = true;
        while (!Files.exists(stop)) {
            if (store == null) {
                store = GroupClient.connect(
                        members,
                        Duration.ofSeconds(60),
                        uri -> MappedOo7Store.connect(uri, secret, ObjectPadding.NONE));
                if (first) {
                    out.println("ready");
                    first = false;
                }
                if (doubt != null) {
                    try {
                        String r = resolve(store, doubt);
                        if (r.equals("applied")) {
                            out.println("ack " + ids(doubt));
                        }
                        out.println("indoubt " + r);
                    } catch (Violation e) {
                        out.println("error " + e.getMessage());
                        out.flush();
                        System.exit(1);
                    } catch (RuntimeException e) {
                        store = reconnect(store, out); // the next leader went away too: resolve at the one after
                        continue;
                    }
                    doubt = null;
                }
            }
            Oo7Updates.Update u;
            try {
                store.begin();
                u = updates.run(store);
            } catch (RuntimeException e) {
                store = reconnect(store, out); // a refused fault dooms the transaction; nothing was sent
                continue;
            }
            try {
                store.commit();
            } catch (TransactionConflictException e) {
                out.println("conflict");
                continue;
            } catch (RuntimeException e) {
                if (u.shared()) {
                    out.println("uncertain " + ids(u));
                } else {
                    doubt = u;
                }
                store = reconnect(store, out);
                continue;
            }
            out.println("ack " + ids(u));
        }
        if (store != null) {
            store.close();
        }
        out.println("done");
        out.flush();
    }

    private static String ids(Oo7Updates.Update u) {
        return u.swapped().stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    private static MappedOo7Store reconnect(MappedOo7Store store, PrintStream out) {
        out.println("reconnect");
        try {
            if (store.inTransaction()) {
                store.abort();
            }
        } catch (RuntimeException e) {
            // the connection went with the leader
        }
        store.close();
        return null;
    }

    /** A commit in doubt found applied in part. */
    private static final class Violation extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Violation(String message) {
            super(message);
        }
    }

    /** "applied" or "lost"; {@link Violation} if the commit was applied in part. */
    private static String resolve(MappedOo7Store store, Oo7Updates.Update u) {
        Map<Integer, int[]> before = new HashMap<>();
        Map<Integer, Integer> count = new HashMap<>();
        for (int i = 0; i < u.swapped().size(); i++) {
            before.putIfAbsent(u.swapped().get(i), u.before().get(i));
            count.merge(u.swapped().get(i), 1, Integer::sum);
        }
        int lost = 0;
        int applied = 0;
        store.begin();
        try {
            for (Map.Entry<Integer, Integer> e : count.entrySet()) {
                int[] b = before.get(e.getKey());
                if (e.getValue() % 2 == 0 || b[0] == b[1]) {
                    continue; // the commit leaves this part as it was
                }
                AtomicPart p = store.atomicPartById(e.getKey());
                if (p.x() == b[0] && p.y() == b[1]) {
                    lost++;
                } else if (p.x() == b[1] && p.y() == b[0]) {
                    applied++;
                } else {
                    throw new Violation("part " + e.getKey() + " holds x=" + p.x() + " y=" + p.y()
                            + ", neither before (" + b[0] + "," + b[1] + ") nor after the commit in doubt");
                }
            }
            store.commit();
        } finally {
            if (store.inTransaction()) {
                store.abort();
            }
        }
        if (lost > 0 && applied > 0) {
            throw new Violation(
                    "a commit in doubt was applied in part: " + applied + " parts swapped, " + lost + " not");
        }
        return applied > 0 ? "applied" : "lost";
    }
}
