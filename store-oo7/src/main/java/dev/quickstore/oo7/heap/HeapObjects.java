package dev.quickstore.oo7.heap;

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

/** Plain Java implementations of the OO7 schema; identity equality, {@link ArrayList} relationships. */
final class HeapObjects {
    private HeapObjects() {}

    static String fixed(String s, int length) {
        if (s.length() > length) {
            throw new IllegalArgumentException("'" + s + "' is longer than " + length + " characters");
        }
        return s;
    }

    abstract static class HeapDesignObj implements DesignObj {
        private final int id;
        private final String type;
        int buildDate;

        HeapDesignObj(int id, String type, int buildDate) {
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

    static final class HeapAtomicPart extends HeapDesignObj implements AtomicPart {
        private int x;
        private int y;
        private final int docId;
        private final List<Connection> to;
        private final List<Connection> from;
        private final CompositePart partOf;

        HeapAtomicPart(int id, String type, int buildDate, int x, int y, int docId, CompositePart partOf) {
            super(id, type, buildDate);
            this.x = x;
            this.y = y;
            this.docId = docId;
            this.partOf = partOf;
            this.to = new ArrayList<>(3);
            this.from = new ArrayList<>(3);
        }

        @Override
        public int x() {
            return x;
        }

        @Override
        public void x(int x) {
            this.x = x;
        }

        @Override
        public int y() {
            return y;
        }

        @Override
        public void y(int y) {
            this.y = y;
        }

        @Override
        public int docId() {
            return docId;
        }

        @Override
        public List<Connection> to() {
            return to;
        }

        @Override
        public List<Connection> from() {
            return from;
        }

        @Override
        public CompositePart partOf() {
            return partOf;
        }
    }

    record HeapConnection(String type, int length, AtomicPart from, AtomicPart to) implements Connection {
        HeapConnection {
            fixed(type, DesignObj.TYPE_LENGTH);
        }

        // Identity semantics like every other stored object (a record would compare by value).
        @Override
        public boolean equals(Object o) {
            return this == o;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(this);
        }

        @Override
        public String toString() {
            return "Connection(" + from.id() + "->" + to.id() + ")";
        }
    }

    static final class HeapCompositePart extends HeapDesignObj implements CompositePart {
        private Document documentation;
        private final List<BaseAssembly> usedInPriv = new ArrayList<>(4);
        private final List<BaseAssembly> usedInShar = new ArrayList<>(4);
        private final List<AtomicPart> parts = new ArrayList<>();
        private AtomicPart rootPart;

        HeapCompositePart(int id, String type, int buildDate) {
            super(id, type, buildDate);
        }

        @Override
        public Document documentation() {
            return documentation;
        }

        @Override
        public void documentation(Document document) {
            this.documentation = document;
        }

        @Override
        public List<BaseAssembly> usedInPriv() {
            return usedInPriv;
        }

        @Override
        public List<BaseAssembly> usedInShar() {
            return usedInShar;
        }

        @Override
        public List<AtomicPart> parts() {
            return parts;
        }

        @Override
        public AtomicPart rootPart() {
            return rootPart;
        }

        @Override
        public void rootPart(AtomicPart root) {
            this.rootPart = root;
        }
    }

    static final class HeapDocument implements Document {
        private final String title;
        private final int id;
        private String text;
        private final CompositePart part;

        HeapDocument(int id, String title, CharSequence text, CompositePart part) {
            this.title = fixed(title, TITLE_LENGTH);
            this.id = id;
            this.text = text.toString();
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
            return text;
        }

        @Override
        public void text(CharSequence text) {
            this.text = text.toString();
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

    static final class HeapManual implements Manual {
        private final String title;
        private final int id;
        private final String text;
        private final Module mod;

        HeapManual(int id, String title, CharSequence text, Module mod) {
            this.title = title;
            this.id = id;
            this.text = text.toString();
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
            return text;
        }

        @Override
        public int textLen() {
            return text.length();
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

    abstract static class HeapAssembly extends HeapDesignObj implements Assembly {
        private final ComplexAssembly superAssembly;
        private final Module module;

        HeapAssembly(int id, String type, int buildDate, Module module, ComplexAssembly superAssembly) {
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

    static final class HeapComplexAssembly extends HeapAssembly implements ComplexAssembly {
        private final List<Assembly> subAssemblies = new ArrayList<>(3);

        HeapComplexAssembly(int id, String type, int buildDate, Module module, ComplexAssembly superAssembly) {
            super(id, type, buildDate, module, superAssembly);
        }

        @Override
        public List<Assembly> subAssemblies() {
            return subAssemblies;
        }
    }

    static final class HeapBaseAssembly extends HeapAssembly implements BaseAssembly {
        private final List<CompositePart> componentsPriv = new ArrayList<>(3);
        private final List<CompositePart> componentsShar = new ArrayList<>(3);

        HeapBaseAssembly(int id, String type, int buildDate, Module module, ComplexAssembly superAssembly) {
            super(id, type, buildDate, module, superAssembly);
        }

        @Override
        public List<CompositePart> componentsPriv() {
            return componentsPriv;
        }

        @Override
        public List<CompositePart> componentsShar() {
            return componentsShar;
        }
    }

    static final class HeapModule extends HeapDesignObj implements Module {
        private Manual man;
        private final List<BaseAssembly> assemblies = new ArrayList<>();
        private ComplexAssembly designRoot;

        HeapModule(int id, String type, int buildDate) {
            super(id, type, buildDate);
        }

        @Override
        public Manual man() {
            return man;
        }

        @Override
        public void man(Manual manual) {
            this.man = manual;
        }

        @Override
        public List<BaseAssembly> assemblies() {
            return assemblies;
        }

        @Override
        public ComplexAssembly designRoot() {
            return designRoot;
        }

        @Override
        public void designRoot(ComplexAssembly root) {
            this.designRoot = root;
        }
    }
}
