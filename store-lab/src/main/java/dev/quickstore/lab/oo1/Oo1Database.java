package dev.quickstore.lab.oo1;

/**
 * An OO1 database on some system (the heap, the mapped store): the few primitives the generator and the
 * operations need, so that one copy of their code runs on every system. Reads and writes happen between {@link
 * #begin} and {@link #commit}.
 */
public interface Oo1Database extends AutoCloseable {
    /** A short name for tables: {@code heap}, {@code qs}. */
    String name();

    void begin();

    /** Commits the transaction (durably where the system is durable). */
    void commit();

    /** The part with {@code id}, through the system's index on ids; null if there is none. */
    Oo1Part partById(int id);

    /** A new part, indexed by {@code id}, with no connections yet. */
    Oo1Part createPart(int id, String type, int x, int y, long build);

    /**
     * A new connection from {@code from} (allocated near it) to {@code to} (null: set later with {@link
     * #retarget}), appended to {@code from}'s connections.
     */
    Oo1Connection connect(Oo1Part from, Oo1Part to, String type, int length);

    /** Points {@code c} at {@code to}. */
    void retarget(Oo1Connection c, Oo1Part to);

    /**
     * Drops every cached page so that the next operation starts cold (the mapped store reopens with an empty
     * arena); a no-op on the heap.
     */
    void makeCold();

    /**
     * Pages read from the store's files since this database was opened, by faults and by the storage manager's
     * own reads (index pages, object lookups) alike (0 on the heap).
     */
    long pagesRead();

    /**
     * Protection faults taken since this database was opened: read, write and reference faults (the
     * replacement clock's, on resident pages; no I/O) alike (0 on the heap).
     */
    long faults();

    /**
     * Virtual frames (address space) the system holds for the database's pages in the current session: every page
     * of the volume under QuickStore's identity placement (each has its frame before the first fault), the frames
     * reserved so far under Texas (one step ahead of the pages faulted in, since the last {@link #makeCold}); 0 on
     * the heap.
     */
    default long framesReserved() {
        return 0;
    }

    @Override
    void close();
}
