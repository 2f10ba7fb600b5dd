package dev.quickstore.oo7.mapped;

import dev.quickstore.api.ObjectTransaction;
import dev.quickstore.core.Index;
import dev.quickstore.core.Transaction;
import dev.quickstore.core.error.DuplicateKeyException;
import dev.quickstore.core.index.KeyType;
import dev.quickstore.oo7.schema.Document;
import java.util.Arrays;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The seven B+tree indexes of the mapped OO7 store ({@link MappedOo7Store}'s class javadoc lists them) and the
 * operations its lookups, scans, creations and deletions run on them: unique inserts and deletes that must find their
 * entry, the object under a key, a range scan. Int and long keys take the numeric paths (one descent, no boxing).
 * The handles are opened once per transaction and dropped when it ends ({@link #endTransaction}).
 */
final class Oo7Indexes {
    private static final String ATOMIC_ID = "oo7.atomic.id";
    private static final String ATOMIC_DATE = "oo7.atomic.date";
    private static final String COMPOSITE_ID = "oo7.composite.id";
    private static final String DOCUMENT_TITLE = "oo7.document.title";
    private static final String DOCUMENT_ID = "oo7.document.id";
    private static final String BASE_ID = "oo7.base.id";
    private static final String MODULE_ID = "oo7.module.id";
    private static final String[] NAMES = {
        ATOMIC_ID, ATOMIC_DATE, COMPOSITE_ID, DOCUMENT_TITLE, DOCUMENT_ID, BASE_ID, MODULE_ID
    };
    static final int ATOMIC_BY_ID = 0,
            ATOMIC_BY_DATE = 1,
            COMPOSITE_BY_ID = 2,
            DOCUMENT_BY_TITLE = 3,
            DOCUMENT_BY_ID = 4,
            BASE_BY_ID = 5,
            MODULE_BY_ID = 6;

    private final Supplier<ObjectTransaction> tx;
    private final Index[] open = new Index[NAMES.length];

    /** @param tx the running transaction (throws if there is none) */
    Oo7Indexes(Supplier<ObjectTransaction> tx) {
        this.tx = tx;
    }

    /** Creates the seven indexes in a new store. */
    static void create(Transaction st) {
        st.createIndex(ATOMIC_ID, KeyType.INT, 0, true);
        st.createIndex(ATOMIC_DATE, KeyType.LONG, 0, true);
        st.createIndex(COMPOSITE_ID, KeyType.INT, 0, true);
        st.createIndex(DOCUMENT_TITLE, KeyType.STRING, Document.TITLE_LENGTH, true);
        st.createIndex(DOCUMENT_ID, KeyType.INT, 0, true);
        st.createIndex(BASE_ID, KeyType.INT, 0, true);
        st.createIndex(MODULE_ID, KeyType.INT, 0, true);
    }

    /** The transaction ended: its index handles are no longer valid. */
    void endTransaction() {
        Arrays.fill(open, null);
    }

    Index index(int i) {
        Index ix = open[i];
        if (ix == null) {
            ix = tx.get().storeTransaction().index(NAMES[i]);
            open[i] = ix;
        }
        return ix;
    }

    void insertUnique(int i, Object key, long ref, String what) {
        try {
            index(i).insert(key, ref);
        } catch (DuplicateKeyException e) {
            throw new IllegalArgumentException("duplicate " + what + " key " + key, e);
        }
    }

    /** {@link #insertUnique(int, Object, long, String)} for the int and long keys, without boxing them. */
    void insertUnique(int i, long key, long ref, String what) {
        try {
            index(i).insertNumeric(key, ref);
        } catch (DuplicateKeyException e) {
            throw new IllegalArgumentException("duplicate " + what + " key " + key, e);
        }
    }

    void deleteExisting(int i, Object key, long ref) {
        Index ix = index(i);
        if (!ix.delete(key, ref)) {
            throw new IllegalStateException(
                    "index " + ix.name() + " has no entry " + key + String.format(" -> 0x%x", ref));
        }
    }

    void deleteExisting(int i, long key, long ref) {
        Index ix = index(i);
        if (!ix.deleteNumeric(key, ref)) {
            throw new IllegalStateException(
                    "index " + ix.name() + " has no entry " + key + String.format(" -> 0x%x", ref));
        }
    }

    <T> T unique(int i, Object key, Class<T> type) {
        long[] refs = index(i).lookup(key);
        return refs.length == 0 ? null : tx.get().follow(refs[0], type);
    }

    /** The object under an int or long key: one descent of the index, no boxing, no array of hits. */
    <T> T unique(int i, long key, Class<T> type) {
        long ref = index(i).lookupFirst(key);
        return ref == 0 ? null : tx.get().follow(ref, type);
    }

    <T> void scan(int i, long lo, long hi, Class<T> type, Consumer<? super T> action) {
        ObjectTransaction t = tx.get();
        index(i).scanNumeric(lo, hi, (key, ref) -> {
            action.accept(t.follow(ref, type));
            return true;
        });
    }

    /** Build-date index key: date in the high half, id (sign-flipped so negative ids sort first) low. */
    static long dateKey(int buildDate, int id) {
        return ((long) buildDate << 32) | ((id ^ Integer.MIN_VALUE) & 0xFFFF_FFFFL);
    }
}
