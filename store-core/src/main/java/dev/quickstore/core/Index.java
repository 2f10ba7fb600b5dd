package dev.quickstore.core;

import dev.quickstore.core.btree.BPlusTree;
import dev.quickstore.core.buffer.Addresses;
import dev.quickstore.core.error.DuplicateKeyException;
import dev.quickstore.core.index.EntryVisitor;
import dev.quickstore.core.index.KeyType;
import dev.quickstore.core.index.NumericEntryVisitor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A named B+tree index from INT, LONG or fixed-length STRING keys to object references, used within
 * the transaction that obtained it ({@link Transaction#createIndex}, {@link Transaction#index}). Index
 * changes are logged and recovered with the store's WAL and undone when the transaction aborts.
 */
public final class Index {
    /** Receives entries in key order; return false to stop. */
    @FunctionalInterface
    public interface Visitor extends EntryVisitor {}

    /** Receives the entries of an INT or LONG index in key order (key, reference); return false to stop. */
    @FunctionalInterface
    public interface NumericVisitor extends NumericEntryVisitor {}

    /** One index entry. */
    public record Entry(Object key, long ref) {}

    private final Transaction tx;
    private final BPlusTree tree;
    private final String name;

    Index(Transaction tx, BPlusTree tree, String name) {
        this.tx = tx;
        this.tree = tree;
        this.name = name;
    }

    public String name() {
        return name;
    }

    public KeyType keyType() {
        return tree.keyType;
    }

    public boolean unique() {
        return tree.unique;
    }

    /**
     * Adds (key, ref). Returns false if that exact entry exists.
     *
     * @throws DuplicateKeyException for a unique index whose key maps to another reference
     */
    public boolean insert(Object key, long ref) {
        return tx.mutate(() -> tree.insert(key, tx.addresses().toDisk(ref)));
    }

    /** Removes (key, ref); returns whether it was present. */
    public boolean delete(Object key, long ref) {
        return tx.mutate(() -> tree.delete(key, tx.addresses().toDisk(ref)));
    }

    /** The references stored under {@code key}, in reference order. */
    public long[] lookup(Object key) {
        return tx.read(() -> {
            long[] refs = tree.lookup(key);
            for (int i = 0; i < refs.length; i++) {
                refs[i] = tx.addresses().toRuntime(refs[i]);
            }
            java.util.Arrays.sort(refs); // relocation can reorder them
            return refs;
        });
    }

    /**
     * The reference stored under the INT or LONG {@code key} (for a unique index the only one; else the first in
     * stored order), or 0 if there is none: one descent of the tree, without boxing the key or collecting the
     * hits ({@link #lookup} for every reference). An int key outside the int range of an INT index is absent. A
     * stored null reference also reads as 0: {@link #lookup} tells the two apart.
     *
     * @throws IllegalArgumentException for a STRING index
     */
    public long lookupFirst(long key) {
        if (tx.insideOperation() && tree.remembered(key)) {
            // nested in an operation of this thread (a scan's visitor: the index-nested-loops join of OO7 Q8), which
            // holds the latch; insideOperation checked the handle and the transaction as enterRead does, and a key
            // the memo holds needs no page, so there is no pin to release and no operation of its own to bracket
            return tx.addresses().toRuntime(tree.rememberedFirst(0));
        }
        // Transaction.read written out without its two capturing lambdas: the point lookup of an index-nested-loops
        // join (OO7 Q8) runs once per outer object (issue 13); the checks are the same
        int mark = tx.enterRead();
        try {
            return tx.addresses().toRuntime(tree.lookupFirst(key, 0));
        } catch (IOException e) {
            throw tx.poisonedBy(e);
        } finally {
            tx.exitRead(mark);
        }
    }

    /**
     * {@link #insert(Object, long)} for an INT or LONG index without boxing the key.
     *
     * @throws DuplicateKeyException for a unique index whose key maps to another reference
     * @throws IllegalArgumentException for a STRING index, or a key outside an INT index's int range
     */
    public boolean insertNumeric(long key, long ref) {
        return tx.mutate(() -> tree.insertNumeric(key, tx.addresses().toDisk(ref)));
    }

    /**
     * {@link #delete(Object, long)} for an INT or LONG index without boxing the key.
     *
     * @throws IllegalArgumentException for a STRING index
     */
    public boolean deleteNumeric(long key, long ref) {
        return tx.mutate(() -> tree.deleteNumeric(key, tx.addresses().toDisk(ref)));
    }

    /**
     * Entries of an INT or LONG index with lo &lt;= key &lt;= hi in key order, read in place from each leaf
     * (no key objects); bounds outside an INT index's range are clamped to it.
     *
     * @throws IllegalArgumentException for a STRING index
     */
    public void scanNumeric(long lo, long hi, NumericVisitor visitor) {
        tx.read(() -> {
            Addresses a = tx.addresses();
            tree.scanNumeric(lo, hi, (k, v) -> visitor.visit(k, a.toRuntime(v)));
            return null;
        });
    }

    /** Entries with lo &lt;= key &lt;= hi (null bound = unbounded), in key order. */
    public List<Entry> scan(Object lo, Object hi) {
        List<Entry> out = new ArrayList<>();
        scan(lo, hi, (k, v) -> out.add(new Entry(k, v)));
        return out;
    }

    public void scan(Object lo, Object hi, Visitor visitor) {
        tx.read(() -> {
            Addresses a = tx.addresses();
            tree.scan(lo, hi, (k, v) -> visitor.visit(k, a.toRuntime(v)));
            return null;
        });
    }

    public long size() {
        return tx.read(tree::size);
    }
}
