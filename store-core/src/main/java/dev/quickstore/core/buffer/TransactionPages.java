package dev.quickstore.core.buffer;

import java.util.HashSet;
import java.util.Set;

/**
 * The pages the running transaction allocated or stole, as the {@link BufferPool} must know them to fix and log them:
 * a <em>new</em> page ({@link BufferPool#fixNew}) was made resident as zeros and is logged as one NEW_PAGE record at
 * commit (ARIES' and ESM's "new page" record: Franklin et al., "Crash Recovery in Client-Server EXODUS", SIGMOD
 * 1992); a <em>stolen</em> page was logged with undo information and written back to make room, so an abort's undo
 * starts from the image the steal wrote, and fixing it as new again must read that image rather than install zeros
 * ({@code StolenNewPageTest}). Invariant: a stolen page is not new (a steal logs a new page whole and forgets it);
 * both sets are empty between transactions.
 */
final class TransactionPages {
    private final Set<Long> newPages = new HashSet<>();
    private final Set<Long> stolen = new HashSet<>();

    /** Whether the transaction has allocated a page before (a stream of allocations: write-ahead pays). */
    boolean anyNew() {
        return !newPages.isEmpty();
    }

    void addNew(long pageId) {
        assert !isStolen(pageId) : "page " + pageId + " was stolen by this transaction: it is not new";
        newPages.add(pageId);
    }

    boolean isNew(long pageId) {
        return !newPages.isEmpty() && newPages.contains(pageId);
    }

    /** The page was logged whole by a steal: from here its image on the volume is the base of later diffs. */
    void forgetNew(long pageId) {
        newPages.remove(pageId);
    }

    void addStolen(long pageId) {
        assert !isNew(pageId) : "page " + pageId + " stolen but still new: the steal logs a new page whole first";
        stolen.add(pageId);
    }

    boolean isStolen(long pageId) {
        return !stolen.isEmpty() && stolen.contains(pageId);
    }

    /** The transaction ended: no page is new or stolen by it any more. */
    void clear() {
        newPages.clear();
        stolen.clear();
    }
}
