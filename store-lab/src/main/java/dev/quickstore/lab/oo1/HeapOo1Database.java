package dev.quickstore.lab.oo1;

import java.util.ArrayList;
import java.util.List;

/**
 * OO1 on the Java heap: plain objects, an {@link ArrayList} of connections per part, and an array by id as the
 * index (the natural heap structure; the mapped store's index is a B+tree). The baseline of every ratio.
 */
public final class HeapOo1Database implements Oo1Database {
    private final List<HeapPart> byId = new ArrayList<>();

    @Override
    public String name() {
        return "heap";
    }

    @Override
    public void begin() {}

    @Override
    public void commit() {}

    @Override
    public Oo1Part partById(int id) {
        return id >= 0 && id < byId.size() ? byId.get(id) : null;
    }

    @Override
    public Oo1Part createPart(int id, String type, int x, int y, long build) {
        if (type.length() > Oo1Part.TYPE_LENGTH) {
            throw new IllegalArgumentException("type '" + type + "' is longer than " + Oo1Part.TYPE_LENGTH);
        }
        HeapPart p = new HeapPart(id, type, x, y, build);
        while (byId.size() <= id) {
            byId.add(null);
        }
        if (byId.get(id) != null) {
            throw new IllegalArgumentException("duplicate part id " + id);
        }
        byId.set(id, p);
        return p;
    }

    @Override
    public Oo1Connection connect(Oo1Part from, Oo1Part to, String type, int length) {
        HeapConnection c = new HeapConnection((HeapPart) from, (HeapPart) to, type, length);
        ((HeapPart) from).to.add(c);
        return c;
    }

    @Override
    public void retarget(Oo1Connection c, Oo1Part to) {
        ((HeapConnection) c).to = (HeapPart) to;
    }

    @Override
    public void makeCold() {}

    @Override
    public long faults() {
        return 0;
    }

    @Override
    public long pagesRead() {
        return 0;
    }

    @Override
    public void close() {
        byId.clear();
    }

    private static final class HeapPart implements Oo1Part {
        private final int id;
        private final String type;
        private final int x;
        private final int y;
        private final long build;
        final List<Oo1Connection> to = new ArrayList<>(3);

        HeapPart(int id, String type, int x, int y, long build) {
            this.id = id;
            this.type = type;
            this.x = x;
            this.y = y;
            this.build = build;
        }

        @Override
        public int id() {
            return id;
        }

        @Override
        public String type() {
            return type;
        }

        @Override
        public int x() {
            return x;
        }

        @Override
        public int y() {
            return y;
        }

        @Override
        public long build() {
            return build;
        }

        @Override
        public List<Oo1Connection> to() {
            return to;
        }
    }

    private static final class HeapConnection implements Oo1Connection {
        private final HeapPart from;
        HeapPart to;
        private final String type;
        private final int length;

        HeapConnection(HeapPart from, HeapPart to, String type, int length) {
            this.from = from;
            this.to = to;
            this.type = type;
            this.length = length;
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
        public Oo1Part from() {
            return from;
        }

        @Override
        public Oo1Part to() {
            return to;
        }
    }
}
