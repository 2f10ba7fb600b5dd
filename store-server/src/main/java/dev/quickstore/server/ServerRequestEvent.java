package dev.quickstore.server;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * One request a page server answered (docs/observability.md; the protocol: docs/formats.md, "Page server"): a
 * page read or a page lock from a client's fault path (data connection, {@link PageWire}), or a commit from its
 * control connection. The duration runs from the request's arrival to its answer being written: for a lock it
 * includes the wait for other sessions' locks, for a commit the wait in the commit queue, the group's log force
 * and validation. Emitted only while a recording enables it (nothing is allocated otherwise); callers check
 * {@code FlightRecorder.isInitialized()} first, so a server nobody records never loads this class.
 */
@Name("dev.quickstore.ServerRequest")
@Label("Page Server Request")
@Category({"QuickStore", "Page Server"})
@Description("A page server answered a client's page read, page lock or commit")
@StackTrace(false)
public final class ServerRequestEvent extends Event {
    private static final ServerRequestEvent PROBE = new ServerRequestEvent();

    /** {@link #kind}: a READ_PAGE request. */
    static final String READ = "page read";
    /** {@link #kind}: a LOCK_PAGE request. */
    static final String LOCK = "lock";
    /** {@link #kind}: a COMMIT. */
    static final String COMMIT = "commit";

    @Label("Store")
    public String store;

    @Label("Session")
    public long session;

    @Label("Kind")
    @Description("page read, lock or commit")
    public String kind;

    @Label("Page")
    @Description("The page read or locked (-1 for a commit)")
    public long page;

    @Label("Lock Mode")
    @Description("0 none, 1 shared, 2 exclusive (page locking only)")
    public int lockMode;

    @Label("Bytes")
    @Description("Bytes of payload: the page (or page LSN) sent, or a commit's changed bytes received")
    @DataAmount
    public long bytes;

    @Label("Pages Written")
    @Description("A commit's written pages")
    public long pagesWritten;

    @Label("Outcome")
    @Description("ok, no such page, denied, error, deadlock, lock timeout; committed, conflict, refused")
    public String outcome;

    /** Whether a recording wants this event (one load, no allocation). */
    static boolean enabled() {
        return PROBE.isEnabled();
    }

    /** A begun event, or null when no recording wants it. */
    static ServerRequestEvent start(String store, long session, String kind) {
        if (!enabled()) {
            return null;
        }
        ServerRequestEvent ev = new ServerRequestEvent();
        ev.begin();
        ev.store = store;
        ev.session = session;
        ev.kind = kind;
        ev.page = -1;
        return ev;
    }

    /** The name of a {@link PageWire} status. */
    static String status(int status) {
        return switch (status) {
            case PageWire.OK -> "ok";
            case PageWire.NO_SUCH_PAGE -> "no such page";
            case PageWire.DENIED -> "denied";
            case PageWire.ERROR -> "error";
            case PageWire.DEADLOCK -> "deadlock";
            case PageWire.LOCK_TIMEOUT -> "lock timeout";
            default -> "status " + status;
        };
    }
}
