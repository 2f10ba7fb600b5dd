package dev.quickstore.peers.lmdb;

import static dev.quickstore.peers.lmdb.LmdbEnvironment.ATOMIC;
import static dev.quickstore.peers.lmdb.LmdbEnvironment.BASE;
import static dev.quickstore.peers.lmdb.LmdbEnvironment.COMPLEX;
import static dev.quickstore.peers.lmdb.LmdbEnvironment.COMPOSITE;
import static dev.quickstore.peers.lmdb.LmdbEnvironment.CONNECTION;
import static dev.quickstore.peers.lmdb.LmdbEnvironment.DOCUMENT;
import static dev.quickstore.peers.lmdb.LmdbEnvironment.MANUAL;
import static dev.quickstore.peers.lmdb.LmdbEnvironment.MODULE;
import static dev.quickstore.peers.lmdb.LmdbRecords.ATOMIC_HEAD;
import static dev.quickstore.peers.lmdb.LmdbRecords.DESIGN_HEAD;
import static dev.quickstore.peers.lmdb.LmdbRecords.FIELD_A;
import static dev.quickstore.peers.lmdb.LmdbRecords.FIELD_B;

import dev.quickstore.oo7.schema.Assembly;
import dev.quickstore.oo7.schema.AtomicPart;
import dev.quickstore.oo7.schema.BaseAssembly;
import dev.quickstore.oo7.schema.ComplexAssembly;
import dev.quickstore.oo7.schema.CompositePart;
import dev.quickstore.oo7.schema.Connection;
import dev.quickstore.oo7.schema.DesignObj;
import dev.quickstore.oo7.schema.Document;
import dev.quickstore.oo7.schema.Manual;
import dev.quickstore.oo7.schema.Module;
import java.nio.ByteBuffer;
import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;
import java.util.function.IntFunction;
import java.util.function.ToIntFunction;

/**
 * The OO7 schema over the LMDB peer's records: each object is a small view holding its DBI and id, reading its
 * record through the store's current transaction (and keeping the zero-copy buffer until the store's
 * {@linkplain LmdbEnvironment#epoch() epoch} changes) and writing by putting a modified copy. Relationship lists
 * are live {@link List} views over a record's id list. Views are equal when they name the same object.
 */
final class LmdbObjects {
    private LmdbObjects() {}

    /** A view of one record: DBI {@link #kind}, key {@link #id}. */
    abstract static class LmdbObject {
        final LmdbOo7Store store;
        final int id;
        private ByteBuffer record;
        private long recordEpoch = -1;

        LmdbObject(LmdbOo7Store store, int id) {
            this.store = store;
            this.id = id;
        }

        abstract int kind();

        /** Uses {@code r}, read in {@code epoch}, as this object's record. */
        @SuppressWarnings("unchecked")
        final <T extends LmdbObject> T preset(ByteBuffer r, long epoch) {
            record = r;
            recordEpoch = epoch;
            return (T) this;
        }

        final ByteBuffer rec() {
            long now = store.env.epoch();
            if (recordEpoch != now) {
                record = store.env.record(kind(), id);
                recordEpoch = now;
            }
            return record;
        }

        final int getInt(int offset) {
            return rec().getInt(offset);
        }

        final void setInt(int offset, int value) {
            store.env.setInt(kind(), id, offset, value);
        }

        public final int id() {
            return id;
        }

        @Override
        public final boolean equals(Object o) {
            return o instanceof LmdbObject other && other.kind() == kind() && other.id == id && other.store == store;
        }

        @Override
        public final int hashCode() {
            return 31 * kind() + id;
        }

        @Override
        public String toString() {
            return getClass().getSimpleName() + "#" + id;
        }
    }

    /** A design object: type, build date and two reference fields, then lists. */
    abstract static class LmdbDesignObj extends LmdbObject implements DesignObj {
        LmdbDesignObj(LmdbOo7Store store, int id) {
            super(store, id);
        }

        public final String type() {
            return LmdbRecords.type(rec());
        }

        public final int buildDate() {
            return getInt(LmdbRecords.BUILD_DATE);
        }

        abstract int head();

        /** List {@code k} of this record as a live list of the objects {@code make} returns for an id. */
        final <E> List<E> list(int k, IntFunction<E> make, ToIntFunction<Object> idOf) {
            return new IdList<>(this, head(), k, make, idOf);
        }
    }

    /** A live list over the id list {@code k} of a record. */
    static final class IdList<E> extends AbstractList<E> implements RandomAccess {
        private final LmdbObject owner;
        private final int head;
        private final int k;
        private final IntFunction<E> make;
        private final ToIntFunction<Object> idOf;

        IdList(LmdbObject owner, int head, int k, IntFunction<E> make, ToIntFunction<Object> idOf) {
            this.owner = owner;
            this.head = head;
            this.k = k;
            this.make = make;
            this.idOf = idOf;
        }

        @Override
        public E get(int index) {
            return make.apply(LmdbRecords.listGet(owner.rec(), head, k, index));
        }

        @Override
        public int size() {
            return LmdbRecords.listSize(owner.rec(), head, k);
        }

        @Override
        public E set(int index, E element) {
            E old = get(index);
            owner.store.env.editList(owner.kind(), owner.id, head, k, index, idOf.applyAsInt(element), 0);
            return old;
        }

        @Override
        public void add(int index, E element) {
            owner.store.env.editList(owner.kind(), owner.id, head, k, index, idOf.applyAsInt(element), 1);
            modCount++;
        }

        @Override
        public E remove(int index) {
            E old = get(index);
            owner.store.env.editList(owner.kind(), owner.id, head, k, index, 0, -1);
            modCount++;
            return old;
        }
    }

    private static int idOf(Object o) {
        return ((LmdbObject) o).id;
    }

    /** Complex assemblies by id, base assemblies by negated id. */
    private static int assemblyRef(Object o) {
        return o instanceof LmdbBaseAssembly ? -((LmdbObject) o).id : ((LmdbObject) o).id;
    }

    private static Assembly assembly(LmdbOo7Store store, int ref) {
        return ref < 0 ? new LmdbBaseAssembly(store, -ref) : new LmdbComplexAssembly(store, ref);
    }

    static final class LmdbAtomicPart extends LmdbDesignObj implements AtomicPart {
        LmdbAtomicPart(LmdbOo7Store store, int id) {
            super(store, id);
        }

        @Override
        int kind() {
            return ATOMIC;
        }

        @Override
        int head() {
            return ATOMIC_HEAD;
        }

        @Override
        public int x() {
            return getInt(LmdbRecords.X);
        }

        @Override
        public void x(int x) {
            setInt(LmdbRecords.X, x);
        }

        @Override
        public int y() {
            return getInt(LmdbRecords.Y);
        }

        @Override
        public void y(int y) {
            setInt(LmdbRecords.Y, y);
        }

        @Override
        public int docId() {
            return getInt(LmdbRecords.DOC_ID);
        }

        @Override
        public List<Connection> to() {
            return list(0, cid -> new LmdbConnection(store, cid), LmdbObjects::idOf);
        }

        @Override
        public List<Connection> from() {
            return list(1, cid -> new LmdbConnection(store, cid), LmdbObjects::idOf);
        }

        @Override
        public CompositePart partOf() {
            return new LmdbCompositePart(store, getInt(LmdbRecords.PART_OF));
        }
    }

    static final class LmdbConnection extends LmdbObject implements Connection {
        LmdbConnection(LmdbOo7Store store, int id) {
            super(store, id);
        }

        @Override
        int kind() {
            return CONNECTION;
        }

        @Override
        public String type() {
            return LmdbRecords.type(rec());
        }

        @Override
        public int length() {
            return getInt(LmdbRecords.LENGTH);
        }

        @Override
        public AtomicPart from() {
            return new LmdbAtomicPart(store, getInt(LmdbRecords.FROM));
        }

        @Override
        public AtomicPart to() {
            return new LmdbAtomicPart(store, getInt(LmdbRecords.TO));
        }
    }

    static final class LmdbCompositePart extends LmdbDesignObj implements CompositePart {
        LmdbCompositePart(LmdbOo7Store store, int id) {
            super(store, id);
        }

        @Override
        int kind() {
            return COMPOSITE;
        }

        @Override
        int head() {
            return DESIGN_HEAD;
        }

        @Override
        public Document documentation() {
            int doc = getInt(FIELD_A);
            return doc == 0 ? null : new LmdbDocument(store, doc);
        }

        @Override
        public void documentation(Document document) {
            setInt(FIELD_A, document == null ? 0 : idOf(document));
        }

        @Override
        public List<BaseAssembly> usedInPriv() {
            return list(0, bid -> new LmdbBaseAssembly(store, bid), LmdbObjects::idOf);
        }

        @Override
        public List<BaseAssembly> usedInShar() {
            return list(1, bid -> new LmdbBaseAssembly(store, bid), LmdbObjects::idOf);
        }

        @Override
        public List<AtomicPart> parts() {
            return list(2, aid -> new LmdbAtomicPart(store, aid), LmdbObjects::idOf);
        }

        @Override
        public AtomicPart rootPart() {
            int root = getInt(FIELD_B);
            return root == 0 ? null : new LmdbAtomicPart(store, root);
        }

        @Override
        public void rootPart(AtomicPart root) {
            setInt(FIELD_B, root == null ? 0 : idOf(root));
        }
    }

    /** A document or a manual: a reference, a title and a text. */
    abstract static class LmdbTextObject extends LmdbObject {
        LmdbTextObject(LmdbOo7Store store, int id) {
            super(store, id);
        }

        public final String title() {
            return LmdbRecords.string(rec(), 4);
        }

        public final CharSequence text() {
            ByteBuffer r = rec();
            return new LmdbText(store, store.env.epoch(), r, LmdbRecords.stringEnd(r, 4));
        }

        final int textLength() {
            ByteBuffer r = rec();
            return r.getInt(LmdbRecords.stringEnd(r, 4) + 1);
        }
    }

    static final class LmdbDocument extends LmdbTextObject implements Document {
        LmdbDocument(LmdbOo7Store store, int id) {
            super(store, id);
        }

        @Override
        int kind() {
            return DOCUMENT;
        }

        @Override
        public void text(CharSequence text) {
            ByteBuffer r = rec();
            int textAt = LmdbRecords.stringEnd(r, 4);
            String copy = text.toString(); // the argument may be a view of this record
            ByteBuffer o = store.env.out(textAt + LmdbRecords.textSize(copy));
            o.put(0, r, 0, textAt);
            LmdbRecords.putText(o, textAt, copy);
            store.env.put(DOCUMENT, id, o);
        }

        @Override
        public CompositePart part() {
            return new LmdbCompositePart(store, getInt(0));
        }
    }

    static final class LmdbManual extends LmdbTextObject implements Manual {
        LmdbManual(LmdbOo7Store store, int id) {
            super(store, id);
        }

        @Override
        int kind() {
            return MANUAL;
        }

        @Override
        public int textLen() {
            return textLength();
        }

        @Override
        public Module mod() {
            return new LmdbModule(store, getInt(0));
        }
    }

    static final class LmdbModule extends LmdbDesignObj implements Module {
        LmdbModule(LmdbOo7Store store, int id) {
            super(store, id);
        }

        @Override
        int kind() {
            return MODULE;
        }

        @Override
        int head() {
            return DESIGN_HEAD;
        }

        @Override
        public Manual man() {
            int man = getInt(FIELD_A);
            return man == 0 ? null : new LmdbManual(store, man);
        }

        @Override
        public void man(Manual manual) {
            setInt(FIELD_A, manual == null ? 0 : idOf(manual));
        }

        @Override
        public List<BaseAssembly> assemblies() {
            return list(0, bid -> new LmdbBaseAssembly(store, bid), LmdbObjects::idOf);
        }

        @Override
        public ComplexAssembly designRoot() {
            int root = getInt(FIELD_B);
            return root == 0 ? null : new LmdbComplexAssembly(store, root);
        }

        @Override
        public void designRoot(ComplexAssembly root) {
            setInt(FIELD_B, root == null ? 0 : idOf(root));
        }
    }

    /** An assembly: super assembly in field A, module in field B. */
    abstract static class LmdbAssembly extends LmdbDesignObj implements Assembly {
        LmdbAssembly(LmdbOo7Store store, int id) {
            super(store, id);
        }

        @Override
        final int head() {
            return DESIGN_HEAD;
        }

        @Override
        public final ComplexAssembly superAssembly() {
            int sup = getInt(FIELD_A);
            return sup == 0 ? null : new LmdbComplexAssembly(store, sup);
        }

        @Override
        public final Module module() {
            return new LmdbModule(store, getInt(FIELD_B));
        }
    }

    static final class LmdbComplexAssembly extends LmdbAssembly implements ComplexAssembly {
        LmdbComplexAssembly(LmdbOo7Store store, int id) {
            super(store, id);
        }

        @Override
        int kind() {
            return COMPLEX;
        }

        @Override
        public List<Assembly> subAssemblies() {
            return list(0, ref -> assembly(store, ref), LmdbObjects::assemblyRef);
        }
    }

    static final class LmdbBaseAssembly extends LmdbAssembly implements BaseAssembly {
        LmdbBaseAssembly(LmdbOo7Store store, int id) {
            super(store, id);
        }

        @Override
        int kind() {
            return BASE;
        }

        @Override
        public List<CompositePart> componentsPriv() {
            return list(0, cid -> new LmdbCompositePart(store, cid), LmdbObjects::idOf);
        }

        @Override
        public List<CompositePart> componentsShar() {
            return list(1, cid -> new LmdbCompositePart(store, cid), LmdbObjects::idOf);
        }
    }
}
