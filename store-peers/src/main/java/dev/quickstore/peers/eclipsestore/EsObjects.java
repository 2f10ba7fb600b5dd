package dev.quickstore.peers.eclipsestore;

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
import java.util.ArrayList;
import java.util.List;
import org.eclipse.serializer.reference.Lazy;

/**
 * The OO7 schema as the plain Java classes an Eclipse Store application persists: fields, {@link ArrayList}
 * relationships and {@link Lazy} references where a reference would otherwise pull a large part of the graph
 * into memory when its owner is loaded (Eclipse Store loads every eagerly referenced object with its
 * referrer): a composite part's atomic-part graph (its parts and its root part), a document's text and a
 * manual's text. Everything else (modules, assemblies, composite parts, documents without their text) is
 * loaded with the root. Identity equality: within one storage manager, Eclipse Store's object registry hands
 * out one instance per stored object.
 *
 * <p>Setters report the changed object to the open store ({@link EclipseStoreOo7Store#changed(Object)});
 * relationships are handed out as {@link TrackedList} views that report the changed {@code ArrayList}. No
 * class here has a transient field or a constructor that Eclipse Store would need: it creates instances
 * without calling a constructor and sets the fields itself.
 */
final class EsObjects {
    private EsObjects() {}

    static String fixed(String s, int length) {
        if (s.length() > length) {
            throw new IllegalArgumentException("'" + s + "' is longer than " + length + " characters");
        }
        return s;
    }

    abstract static class EsDesignObj implements DesignObj {
        final int id;
        final String type;
        int buildDate;

        EsDesignObj(int id, String type, int buildDate) {
            this.id = id;
            this.type = fixed(type, TYPE_LENGTH);
            this.buildDate = buildDate;
        }

        @Override
        public final int id() {
            return id;
        }

        @Override
        public final String type() {
            return type;
        }

        @Override
        public final int buildDate() {
            return buildDate;
        }

        @Override
        public String toString() {
            return getClass().getSimpleName() + "#" + id;
        }
    }

    static final class EsAtomicPart extends EsDesignObj implements AtomicPart {
        int x;
        int y;
        final int docId;
        final ArrayList<Connection> to = new ArrayList<>(3);
        final ArrayList<Connection> from = new ArrayList<>(3);
        final CompositePart partOf;

        EsAtomicPart(int id, String type, int buildDate, int x, int y, int docId, CompositePart partOf) {
            super(id, type, buildDate);
            this.x = x;
            this.y = y;
            this.docId = docId;
            this.partOf = partOf;
        }

        @Override
        public int x() {
            return x;
        }

        @Override
        public void x(int x) {
            this.x = x;
            EclipseStoreOo7Store.changed(this);
        }

        @Override
        public int y() {
            return y;
        }

        @Override
        public void y(int y) {
            this.y = y;
            EclipseStoreOo7Store.changed(this);
        }

        @Override
        public int docId() {
            return docId;
        }

        @Override
        public List<Connection> to() {
            return new TrackedList<>(to);
        }

        @Override
        public List<Connection> from() {
            return new TrackedList<>(from);
        }

        @Override
        public CompositePart partOf() {
            return partOf;
        }
    }

    static final class EsConnection implements Connection {
        final String type;
        final int length;
        final AtomicPart from;
        final AtomicPart to;

        EsConnection(String type, int length, AtomicPart from, AtomicPart to) {
            this.type = fixed(type, DesignObj.TYPE_LENGTH);
            this.length = length;
            this.from = from;
            this.to = to;
        }

        @Override
        public String type() {
            return type;
        }

        @Override
        public int length() {
            return length;
        }

        @Override
        public AtomicPart from() {
            return from;
        }

        @Override
        public AtomicPart to() {
            return to;
        }

        @Override
        public String toString() {
            return "Connection(" + from.id() + "->" + to.id() + ")";
        }
    }

    static final class EsCompositePart extends EsDesignObj implements CompositePart {
        Document documentation;
        final ArrayList<BaseAssembly> usedInPriv = new ArrayList<>(4);
        final ArrayList<BaseAssembly> usedInShar = new ArrayList<>(4);
        /** The atomic-part graph: loaded on first use, not with the composite part. */
        final Lazy<ArrayList<AtomicPart>> parts = Lazy.Reference(new ArrayList<>());

        Lazy<AtomicPart> rootPart;

        EsCompositePart(int id, String type, int buildDate) {
            super(id, type, buildDate);
        }

        @Override
        public Document documentation() {
            return documentation;
        }

        @Override
        public void documentation(Document document) {
            this.documentation = document;
            EclipseStoreOo7Store.changed(this);
        }

        @Override
        public List<BaseAssembly> usedInPriv() {
            return new TrackedList<>(usedInPriv);
        }

        @Override
        public List<BaseAssembly> usedInShar() {
            return new TrackedList<>(usedInShar);
        }

        @Override
        public List<AtomicPart> parts() {
            return new TrackedList<>(parts.get());
        }

        @Override
        public AtomicPart rootPart() {
            return Lazy.get(rootPart);
        }

        @Override
        public void rootPart(AtomicPart root) {
            this.rootPart = Lazy.Reference(root);
            EclipseStoreOo7Store.changed(this);
        }
    }

    static final class EsDocument implements Document {
        final String title;
        final int id;
        /** The text (2,000 characters small): loaded on first use. */
        Lazy<String> text;

        final CompositePart part;

        EsDocument(int id, String title, CharSequence text, CompositePart part) {
            this.title = fixed(title, TITLE_LENGTH);
            this.id = id;
            this.text = Lazy.Reference(text.toString());
            this.part = part;
        }

        @Override
        public String title() {
            return title;
        }

        @Override
        public int id() {
            return id;
        }

        @Override
        public CharSequence text() {
            return text.get();
        }

        @Override
        public void text(CharSequence text) {
            this.text = Lazy.Reference(text.toString());
            EclipseStoreOo7Store.changed(this);
        }

        @Override
        public CompositePart part() {
            return part;
        }

        @Override
        public String toString() {
            return "Document#" + id;
        }
    }

    static final class EsManual implements Manual {
        final String title;
        final int id;
        /** The large object (100,000 characters small): loaded on first use. */
        final Lazy<String> text;

        final int textLen;
        final Module mod;

        EsManual(int id, String title, CharSequence text, Module mod) {
            this.title = title;
            this.id = id;
            this.text = Lazy.Reference(text.toString());
            this.textLen = text.length();
            this.mod = mod;
        }

        @Override
        public String title() {
            return title;
        }

        @Override
        public int id() {
            return id;
        }

        @Override
        public CharSequence text() {
            return text.get();
        }

        @Override
        public int textLen() {
            return textLen;
        }

        @Override
        public Module mod() {
            return mod;
        }

        @Override
        public String toString() {
            return "Manual#" + id;
        }
    }

    abstract static class EsAssembly extends EsDesignObj implements Assembly {
        final ComplexAssembly superAssembly;
        final Module module;

        EsAssembly(int id, String type, int buildDate, Module module, ComplexAssembly superAssembly) {
            super(id, type, buildDate);
            this.module = module;
            this.superAssembly = superAssembly;
        }

        @Override
        public ComplexAssembly superAssembly() {
            return superAssembly;
        }

        @Override
        public Module module() {
            return module;
        }
    }

    static final class EsComplexAssembly extends EsAssembly implements ComplexAssembly {
        final ArrayList<Assembly> subAssemblies = new ArrayList<>(3);

        EsComplexAssembly(int id, String type, int buildDate, Module module, ComplexAssembly superAssembly) {
            super(id, type, buildDate, module, superAssembly);
        }

        @Override
        public List<Assembly> subAssemblies() {
            return new TrackedList<>(subAssemblies);
        }
    }

    static final class EsBaseAssembly extends EsAssembly implements BaseAssembly {
        final ArrayList<CompositePart> componentsPriv = new ArrayList<>(3);
        final ArrayList<CompositePart> componentsShar = new ArrayList<>(3);

        EsBaseAssembly(int id, String type, int buildDate, Module module, ComplexAssembly superAssembly) {
            super(id, type, buildDate, module, superAssembly);
        }

        @Override
        public List<CompositePart> componentsPriv() {
            return new TrackedList<>(componentsPriv);
        }

        @Override
        public List<CompositePart> componentsShar() {
            return new TrackedList<>(componentsShar);
        }
    }

    static final class EsModule extends EsDesignObj implements Module {
        Manual man;
        final ArrayList<BaseAssembly> assemblies = new ArrayList<>();
        ComplexAssembly designRoot;

        EsModule(int id, String type, int buildDate) {
            super(id, type, buildDate);
        }

        @Override
        public Manual man() {
            return man;
        }

        @Override
        public void man(Manual manual) {
            this.man = manual;
            EclipseStoreOo7Store.changed(this);
        }

        @Override
        public List<BaseAssembly> assemblies() {
            return new TrackedList<>(assemblies);
        }

        @Override
        public ComplexAssembly designRoot() {
            return designRoot;
        }

        @Override
        public void designRoot(ComplexAssembly root) {
            this.designRoot = root;
            EclipseStoreOo7Store.changed(this);
        }
    }
}
