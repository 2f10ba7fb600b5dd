package dev.quickstore.api;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/** Values for every field kind, and a child-JVM main that prints what it reads back. */
final class KindsFixture {
    static final String LONG_TEXT = "I am the documentation for composite part #00000001.\n".repeat(400) + "\u03bb";
    static final byte[] BIG = new byte[100_000];

    static {
        for (int i = 0; i < BIG.length; i++) {
            BIG[i] = (byte) (i * 31 + 7);
        }
    }

    private KindsFixture() {}

    /** Fills {@code k} (and two children) with distinctive values of every kind. */
    static void fill(ObjectTransaction tx, Kinds k) {
        k.b((byte) -5);
        k.s((short) -1234);
        k.c('\u20ac');
        k.i(0x12345678);
        k.l(Long.MIN_VALUE + 42);
        k.f(3.25f);
        k.d(-Math.PI);
        k.z(true);
        k.type("type007");
        k.name("short name");
        k.text(LONG_TEXT);
        k.data(BIG);
        Kinds a = tx.create(Kinds.class, k);
        a.i(1);
        a.type("type000");
        Kinds b = tx.create(Kinds.class, k);
        b.i(2);
        b.other(k);
        k.other(a);
        k.children().add(a);
        k.children().add(b);
        k.children().add(null);
        k.children().add(a);
    }

    /** A stable description of everything reachable from {@code k} that {@link #fill} set. */
    static String describe(Kinds k) {
        StringBuilder sb = new StringBuilder();
        sb.append(k.b())
                .append(' ')
                .append(k.s())
                .append(' ')
                .append((int) k.c())
                .append(' ');
        sb.append(Integer.toHexString(k.i())).append(' ').append(k.l()).append(' ');
        sb.append(k.f()).append(' ').append(k.d()).append(' ').append(k.z()).append(' ');
        sb.append('[').append(k.type()).append("] [").append(k.name()).append("] ");
        sb.append(k.text().length())
                .append(':')
                .append(k.text().toString().hashCode())
                .append(' ');
        sb.append(k.data().length).append(':').append(Arrays.hashCode(k.data())).append(' ');
        sb.append("other.i=")
                .append(k.other().i())
                .append(" other.type=[")
                .append(k.other().type())
                .append("] ");
        List<Kinds> ch = k.children();
        sb.append("children=").append(ch.size()).append(':');
        for (Kinds c : ch) {
            sb.append(
                            c == null
                                    ? "null"
                                    : c.i()
                                            + (c.other() == null
                                                    ? ""
                                                    : "->" + c.other().i()))
                    .append(',');
        }
        sb.append(" name-of-child=").append(ch.get(0).name()).append(' ');
        sb.append(HexFormat.of().formatHex(k.type().getBytes(java.nio.charset.StandardCharsets.ISO_8859_1)));
        return sb.toString();
    }

    /** Child JVM: opens the store, prints {@link #describe} of root "kinds". */
    public static void main(String[] args) throws Exception {
        try (PersistentStore db = PersistentStore.open(Path.of(args[0]), Kinds.class);
                ObjectTransaction tx = db.begin()) {
            System.out.println(describe(tx.root("kinds", Kinds.class)));
        }
    }
}
