package dev.quickstore.server;

import io.netty.channel.Channel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The server's clients and its callback table (which client caches which page): a page served on a client's
 * data connection is recorded here; when another client's commit changes it, the page is taken out and the
 * client is sent an invalidation (the callback of callback locking, Franklin and Carey 1992, with
 * optimistic validation instead of locks). A client whose control connection closes - it ended, or it died,
 * or it sent nothing within its lease - leaves the table at once, so a dead client holds no callbacks.
 */
final class Sessions {
    /** One client: its control connection (answers, invalidations) and the pages it caches. */
    static final class Session {
        final long id;
        final String peer;
        final String name;
        final Channel control;
        final long since = System.currentTimeMillis();
        final AtomicLong commits = new AtomicLong();
        final AtomicLong conflicts = new AtomicLong();
        final Set<Long> cached = ConcurrentHashMap.newKeySet();
        /** The data connection, once it joined (closed with the session). */
        volatile Channel data;

        Session(long id, String peer, String name, Channel control) {
            this.id = id;
            this.peer = peer;
            this.name = name;
            this.control = control;
        }
    }

    private final Map<Long, Session> sessions = new ConcurrentHashMap<>();
    private final AtomicLong next = new AtomicLong(1);

    Session open(String peer, String name, Channel control) {
        Session s = new Session(next.getAndIncrement(), peer, name, control);
        sessions.put(s.id, s);
        return s;
    }

    Session get(long id) {
        return sessions.get(id);
    }

    /** Ends a session: its callbacks go, and its data connection is closed (its faults are refused). */
    void close(long id) {
        Session s = sessions.remove(id);
        if (s != null && s.data != null) {
            s.data.close();
        }
    }

    int size() {
        return sessions.size();
    }

    /** The connected clients, by session id. */
    List<Session> all() {
        List<Session> out = new ArrayList<>(sessions.values());
        out.sort(java.util.Comparator.comparingLong(s -> s.id));
        return out;
    }

    /**
     * Takes {@code pages} out of every other session's cache and returns, per session that cached any, the
     * pages to invalidate there; the committer keeps them (its cache holds the committed version).
     */
    Map<Session, long[]> invalidate(long committer, long[] pages) {
        Map<Session, long[]> out = new java.util.HashMap<>();
        for (Session s : sessions.values()) {
            if (s.id == committer) {
                for (long p : pages) {
                    s.cached.add(p); // it keeps the pages it wrote, now at the committed version
                }
                continue;
            }
            List<Long> hit = new ArrayList<>();
            for (long p : pages) {
                if (s.cached.remove(p)) {
                    hit.add(p);
                }
            }
            if (!hit.isEmpty()) {
                out.put(s, hit.stream().mapToLong(Long::longValue).toArray());
            }
        }
        return out;
    }
}
