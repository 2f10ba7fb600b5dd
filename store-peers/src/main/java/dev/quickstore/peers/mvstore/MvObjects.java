package dev.quickstore.peers.mvstore;

import dev.quickstore.oo7.schema.Assembly;
import dev.quickstore.oo7.schema.AtomicPart;
import dev.quickstore.oo7.schema.BaseAssembly;
import dev.quickstore.oo7.schema.ComplexAssembly;
import dev.quickstore.oo7.schema.CompositePart;
import dev.quickstore.oo7.schema.Connection;
import dev.quickstore.oo7.schema.Document;
import dev.quickstore.oo7.schema.Manual;
import dev.quickstore.oo7.schema.Module;
import dev.quickstore.peers.mvstore.MvRecords.Atomic;
import dev.quickstore.peers.mvstore.MvRecords.Base;
import dev.quickstore.peers.mvstore.MvRecords.Complex;
import dev.quickstore.peers.mvstore.MvRecords.Composite;
import dev.quickstore.peers.mvstore.MvRecords.Conn;
import dev.quickstore.peers.mvstore.MvRecords.Doc;
import dev.quickstore.peers.mvstore.MvRecords.Man;
import dev.quickstore.peers.mvstore.MvRecords.Mod;
import dev.quickstore.peers.mvstore.MvRecords.Rec;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.ToIntFunction;
import org.h2.mvstore.MVMap;

/**
 * The OO7 schema over the MVStore peer's maps: each object is a small view holding its map and id that gets
 * its immutable record from the map (keeping it until the store's {@linkplain MvStoreOo7Store#epoch() epoch}
 * changes) and writes by putting an updated copy. Relationship lists are live {@link List} views over a
 * record's id array. Views are equal when they name the same object.
 */
final class MvObjects {
    private MvObjects() {}

    abstract static class MvObject<R extends Rec> {
        final MvStoreOo7Store store;
        final int id;
        private R record;
        private long recordEpoch = -1;

        MvObject(MvStoreOo7Store store, int id) {
            this.store = store;
            this.id = id;
        }

        abstract MVMap<Integer, Rec> map();

        @SuppressWarnings("unchecked")
        final R rec() {
            long now = store.epoch();
            if (recordEpoch != now) {
                Rec r = map().get(id);
                if (r == null) {
                    throw new IllegalStateException("no object " + id + " in MVStore map " + map().getName());
                }
                record = (R) r;
                recordEpoch = now;
            }
            return record;
        }

        final void update(Function<R, R> change) {
            store.put(map(), id, change.apply(rec()));
        }

        public final int id() {
            return id;
        }

        @Override
        public final boolean equals(Object o) {
            return o instanceof MvObject<?> other && other.map() == map() && other.id == id;
        }

        @Override
        public final int hashCode() {
            return 31 * map().getId() + id;
        }

        @Override
        public String toString() {
            return getClass().getSimpleName() + "#" + id;
        }
    }

    /** A live list over an id array of a record. */
    static final class IdList<R extends Rec, E> extends AbstractList<E> implements RandomAccess {
        private final MvObject<R> owner;
        private final Function<R, int[]> get;
        private final WithList<R> with;
        private final IntFunction<E> make;
        private final ToIntFunction<Object> idOf;

        interface WithList<R> {
            R apply(R record, int[] ids);
        }

        IdList(
                MvObject<R> owner,
                Function<R, int[]> get,
                WithList<R> with,
                IntFunction<E> make,
                ToIntFunction<Object> idOf) {
            this.owner = owner;
            this.get = get;
            this.with = with;
            this.make = make;
            this.idOf = idOf;
        }

        @Override
        public E get(int index) {
            int[] ids = get.apply(owner.rec());
            if (index < 0 || index >= ids.length) {
                throw new IndexOutOfBoundsException("index " + index + ", size " + ids.length);
            }
            return make.apply(ids[index]);
        }

        @Override
        public int size() {
            return get.apply(owner.rec()).length;
        }

        @Override
        public E set(int index, E element) {
            E old = get(index);
            int[] ids = get.apply(owner.rec()).clone();
            ids[index] = idOf.applyAsInt(element);
            owner.update(r -> with.apply(r, ids));
            return old;
        }

        @Override
        public void add(int index, E element) {
            int[] ids = get.apply(owner.rec());
            if (index < 0 || index > ids.length) {
                throw new IndexOutOfBoundsException("index " + index + ", size " + ids.length);
            }
            int[] grown = new int[ids.length + 1];
            System.arraycopy(ids, 0, grown, 0, index);
            grown[index] = idOf.applyAsInt(element);
            System.arraycopy(ids, index, grown, index + 1, ids.length - index);
            owner.update(r -> with.apply(r, grown));
            modCount++;
        }

        @Override
        public E remove(int index) {
            E old = get(index);
            int[] ids = get.apply(owner.rec());
            int[] shrunk = Arrays.copyOf(ids, ids.length - 1);
            System.arraycopy(ids, index + 1, shrunk, index, ids.length - index - 1);
            owner.update(r -> with.apply(r, shrunk));
            modCount++;
            return old;
        }
    }

    static int idOf(Object o) {
        return ((MvObject<?>) o).id;
    }

    private static int assemblyRef(Object o) {
        return o instanceof MvBaseAssembly ? -idOf(o) : idOf(o);
    }

    static final class MvAtomicPart extends MvObject<Atomic> implements AtomicPart {
        MvAtomicPart(MvStoreOo7Store store, int id) {
            super(store, id);
        }

        @Override
        MVMap<Integer, Rec> map() {
            return store.atomic;
        }

        @Override
        public String type() {
            return rec().type();
        }

        @Override
        public int buildDate() {
            return rec().buildDate();
        }

        @Override
        public int x() {
            return rec().x();
        }

        @Override
        public void x(int x) {
            update(a -> new Atomic(a.type(), a.buildDate(), x, a.y(), a.docId(), a.partOf(), a.to(), a.from()));
        }

        @Override
        public int y() {
            return rec().y();
        }

        @Override
        public void y(int y) {
            update(a -> new Atomic(a.type(), a.buildDate(), a.x(), y, a.docId(), a.partOf(), a.to(), a.from()));
        }

        void buildDate(int date) {
            update(a -> new Atomic(a.type(), date, a.x(), a.y(), a.docId(), a.partOf(), a.to(), a.from()));
        }

        @Override
        public int docId() {
            return rec().docId();
        }

        @Override
        public List<Connection> to() {
            return new IdList<>(
                    this,
                    Atomic::to,
                    (a, ids) -> new Atomic(a.type(), a.buildDate(), a.x(), a.y(), a.docId(), a.partOf(), ids, a.from()),
                    cid -> new MvConnection(store, cid),
                    MvObjects::idOf);
        }

        @Override
        public List<Connection> from() {
            return new IdList<>(
                    this,
                    Atomic::from,
                    (a, ids) -> new Atomic(a.type(), a.buildDate(), a.x(), a.y(), a.docId(), a.partOf(), a.to(), ids),
                    cid -> new MvConnection(store, cid),
                    MvObjects::idOf);
        }

        @Override
        public CompositePart partOf() {
            return new MvCompositePart(store, rec().partOf());
        }
    }

    static final class MvConnection extends MvObject<Conn> implements Connection {
        MvConnection(MvStoreOo7Store store, int id) {
            super(store, id);
        }

        @Override
        MVMap<Integer, Rec> map() {
            return store.connection;
        }

        @Override
        public String type() {
            return rec().type();
        }

        @Override
        public int length() {
            return rec().length();
        }

        @Override
        public AtomicPart from() {
            return new MvAtomicPart(store, rec().from());
        }

        @Override
        public AtomicPart to() {
            return new MvAtomicPart(store, rec().to());
        }
    }

    static final class MvCompositePart extends MvObject<Composite> implements CompositePart {
        MvCompositePart(MvStoreOo7Store store, int id) {
            super(store, id);
        }

        @Override
        MVMap<Integer, Rec> map() {
            return store.composite;
        }

        @Override
        public String type() {
            return rec().type();
        }

        @Override
        public int buildDate() {
            return rec().buildDate();
        }

        @Override
        public Document documentation() {
            int doc = rec().documentation();
            return doc == 0 ? null : new MvDocument(store, doc);
        }

        @Override
        public void documentation(Document document) {
            int doc = document == null ? 0 : idOf(document);
            update(c -> new Composite(
                    c.type(), c.buildDate(), doc, c.rootPart(), c.usedInPriv(), c.usedInShar(), c.parts()));
        }

        @Override
        public List<BaseAssembly> usedInPriv() {
            return new IdList<>(
                    this,
                    Composite::usedInPriv,
                    (c, ids) -> new Composite(
                            c.type(), c.buildDate(), c.documentation(), c.rootPart(), ids, c.usedInShar(), c.parts()),
                    bid -> new MvBaseAssembly(store, bid),
                    MvObjects::idOf);
        }

        @Override
        public List<BaseAssembly> usedInShar() {
            return new IdList<>(
                    this,
                    Composite::usedInShar,
                    (c, ids) -> new Composite(
                            c.type(), c.buildDate(), c.documentation(), c.rootPart(), c.usedInPriv(), ids, c.parts()),
                    bid -> new MvBaseAssembly(store, bid),
                    MvObjects::idOf);
        }

        @Override
        public List<AtomicPart> parts() {
            return new IdList<>(
                    this,
                    Composite::parts,
                    (c, ids) -> new Composite(
                            c.type(),
                            c.buildDate(),
                            c.documentation(),
                            c.rootPart(),
                            c.usedInPriv(),
                            c.usedInShar(),
                            ids),
                    aid -> new MvAtomicPart(store, aid),
                    MvObjects::idOf);
        }

        @Override
        public AtomicPart rootPart() {
            int root = rec().rootPart();
            return root == 0 ? null : new MvAtomicPart(store, root);
        }

        @Override
        public void rootPart(AtomicPart root) {
            int part = root == null ? 0 : idOf(root);
            update(c -> new Composite(
                    c.type(), c.buildDate(), c.documentation(), part, c.usedInPriv(), c.usedInShar(), c.parts()));
        }
    }

    static final class MvDocument extends MvObject<Doc> implements Document {
        MvDocument(MvStoreOo7Store store, int id) {
            super(store, id);
        }

        @Override
        MVMap<Integer, Rec> map() {
            return store.document;
        }

        @Override
        public String title() {
            return rec().title();
        }

        @Override
        public CharSequence text() {
            return rec().text();
        }

        @Override
        public void text(CharSequence text) {
            String s = text.toString();
            update(d -> new Doc(d.title(), d.part(), s));
        }

        @Override
        public CompositePart part() {
            return new MvCompositePart(store, rec().part());
        }
    }

    static final class MvManual extends MvObject<Man> implements Manual {
        MvManual(MvStoreOo7Store store, int id) {
            super(store, id);
        }

        @Override
        MVMap<Integer, Rec> map() {
            return store.manual;
        }

        @Override
        public String title() {
            return rec().title();
        }

        @Override
        public CharSequence text() {
            return rec().text();
        }

        @Override
        public int textLen() {
            return rec().text().length();
        }

        @Override
        public Module mod() {
            return new MvModule(store, rec().mod());
        }
    }

    static final class MvModule extends MvObject<Mod> implements Module {
        MvModule(MvStoreOo7Store store, int id) {
            super(store, id);
        }

        @Override
        MVMap<Integer, Rec> map() {
            return store.module;
        }

        @Override
        public String type() {
            return rec().type();
        }

        @Override
        public int buildDate() {
            return rec().buildDate();
        }

        @Override
        public Manual man() {
            int man = rec().man();
            return man == 0 ? null : new MvManual(store, man);
        }

        @Override
        public void man(Manual manual) {
            int man = manual == null ? 0 : idOf(manual);
            update(m -> new Mod(m.type(), m.buildDate(), man, m.designRoot(), m.assemblies()));
        }

        @Override
        public List<BaseAssembly> assemblies() {
            return new IdList<>(
                    this,
                    Mod::assemblies,
                    (m, ids) -> new Mod(m.type(), m.buildDate(), m.man(), m.designRoot(), ids),
                    bid -> new MvBaseAssembly(store, bid),
                    MvObjects::idOf);
        }

        @Override
        public ComplexAssembly designRoot() {
            int root = rec().designRoot();
            return root == 0 ? null : new MvComplexAssembly(store, root);
        }

        @Override
        public void designRoot(ComplexAssembly root) {
            int ca = root == null ? 0 : idOf(root);
            update(m -> new Mod(m.type(), m.buildDate(), m.man(), ca, m.assemblies()));
        }
    }

    static final class MvComplexAssembly extends MvObject<Complex> implements ComplexAssembly {
        MvComplexAssembly(MvStoreOo7Store store, int id) {
            super(store, id);
        }

        @Override
        MVMap<Integer, Rec> map() {
            return store.complex;
        }

        @Override
        public String type() {
            return rec().type();
        }

        @Override
        public int buildDate() {
            return rec().buildDate();
        }

        @Override
        public ComplexAssembly superAssembly() {
            int sup = rec().superAssembly();
            return sup == 0 ? null : new MvComplexAssembly(store, sup);
        }

        @Override
        public Module module() {
            return new MvModule(store, rec().module());
        }

        @Override
        public List<Assembly> subAssemblies() {
            return new IdList<>(
                    this,
                    Complex::subAssemblies,
                    (c, ids) -> new Complex(c.type(), c.buildDate(), c.superAssembly(), c.module(), ids),
                    ref -> ref < 0 ? new MvBaseAssembly(store, -ref) : new MvComplexAssembly(store, ref),
                    MvObjects::assemblyRef);
        }
    }

    static final class MvBaseAssembly extends MvObject<Base> implements BaseAssembly {
        MvBaseAssembly(MvStoreOo7Store store, int id) {
            super(store, id);
        }

        @Override
        MVMap<Integer, Rec> map() {
            return store.base;
        }

        @Override
        public String type() {
            return rec().type();
        }

        @Override
        public int buildDate() {
            return rec().buildDate();
        }

        @Override
        public ComplexAssembly superAssembly() {
            int sup = rec().superAssembly();
            return sup == 0 ? null : new MvComplexAssembly(store, sup);
        }

        @Override
        public Module module() {
            return new MvModule(store, rec().module());
        }

        @Override
        public List<CompositePart> componentsPriv() {
            return new IdList<>(
                    this,
                    Base::componentsPriv,
                    (b, ids) ->
                            new Base(b.type(), b.buildDate(), b.superAssembly(), b.module(), ids, b.componentsShar()),
                    cid -> new MvCompositePart(store, cid),
                    MvObjects::idOf);
        }

        @Override
        public List<CompositePart> componentsShar() {
            return new IdList<>(
                    this,
                    Base::componentsShar,
                    (b, ids) ->
                            new Base(b.type(), b.buildDate(), b.superAssembly(), b.module(), b.componentsPriv(), ids),
                    cid -> new MvCompositePart(store, cid),
                    MvObjects::idOf);
        }
    }
}
