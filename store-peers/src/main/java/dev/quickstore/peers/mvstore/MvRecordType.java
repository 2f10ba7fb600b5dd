package dev.quickstore.peers.mvstore;

import dev.quickstore.peers.mvstore.MvRecords.Atomic;
import dev.quickstore.peers.mvstore.MvRecords.Base;
import dev.quickstore.peers.mvstore.MvRecords.Complex;
import dev.quickstore.peers.mvstore.MvRecords.Composite;
import dev.quickstore.peers.mvstore.MvRecords.Conn;
import dev.quickstore.peers.mvstore.MvRecords.Doc;
import dev.quickstore.peers.mvstore.MvRecords.Man;
import dev.quickstore.peers.mvstore.MvRecords.Mod;
import dev.quickstore.peers.mvstore.MvRecords.Rec;
import java.nio.ByteBuffer;
import org.h2.mvstore.DataUtils;
import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.BasicDataType;
import org.h2.mvstore.type.StringDataType;

/**
 * The custom MVStore {@link org.h2.mvstore.type.DataType} of the OO7 records (H2's documented way to store
 * one's own classes in an {@link org.h2.mvstore.MVMap}): a tag byte (1 atomic, 2 connection, 3 composite, 4
 * document, 5 manual, 6 module, 7 complex, 8 base), then the record's components in declaration order: ints
 * as H2 variable-length ints ({@link WriteBuffer#putVarInt}), strings as H2's {@link StringDataType} writes
 * them (length, then modified UTF-8 chars), int arrays as a length and the elements. The format's version is
 * {@value MvStoreOo7Store#FORMAT_VERSION}, kept in the store's {@code meta} map. MVStore checksums its chunk
 * headers and footers (Fletcher-32) and checks each page's header against its position; the records' bytes
 * carry no checksum of their own (as MVStore users write them; see docs/peers.md).
 */
final class MvRecordType extends BasicDataType<Rec> {
    static final MvRecordType INSTANCE = new MvRecordType();

    private MvRecordType() {}

    @Override
    public int getMemory(Rec r) {
        return switch (r) {
            case Atomic a -> 64 + 4 * (a.to().length + a.from().length);
            case Conn c -> 40;
            case Composite c -> 80 + 4 * (c.usedInPriv().length + c.usedInShar().length + c.parts().length);
            case Doc d -> 48 + 2 * (d.title().length() + d.text().length());
            case Man m -> 48 + 2 * (m.title().length() + m.text().length());
            case Mod m -> 56 + 4 * m.assemblies().length;
            case Complex c -> 56 + 4 * c.subAssemblies().length;
            case Base b -> 64 + 4 * (b.componentsPriv().length + b.componentsShar().length);
        };
    }

    @Override
    public void write(WriteBuffer buff, Rec r) {
        switch (r) {
            case Atomic a -> {
                buff.put((byte) 1);
                str(buff, a.type());
                buff.putVarInt(a.buildDate()).putVarInt(a.x()).putVarInt(a.y());
                buff.putVarInt(a.docId()).putVarInt(a.partOf());
                ints(buff, a.to());
                ints(buff, a.from());
            }
            case Conn c -> {
                buff.put((byte) 2);
                str(buff, c.type());
                buff.putVarInt(c.length()).putVarInt(c.from()).putVarInt(c.to());
            }
            case Composite c -> {
                buff.put((byte) 3);
                str(buff, c.type());
                buff.putVarInt(c.buildDate()).putVarInt(c.documentation()).putVarInt(c.rootPart());
                ints(buff, c.usedInPriv());
                ints(buff, c.usedInShar());
                ints(buff, c.parts());
            }
            case Doc d -> {
                buff.put((byte) 4);
                str(buff, d.title());
                buff.putVarInt(d.part());
                str(buff, d.text());
            }
            case Man m -> {
                buff.put((byte) 5);
                str(buff, m.title());
                buff.putVarInt(m.mod());
                str(buff, m.text());
            }
            case Mod m -> {
                buff.put((byte) 6);
                str(buff, m.type());
                buff.putVarInt(m.buildDate()).putVarInt(m.man()).putVarInt(m.designRoot());
                ints(buff, m.assemblies());
            }
            case Complex c -> {
                buff.put((byte) 7);
                str(buff, c.type());
                buff.putVarInt(c.buildDate()).putVarInt(c.superAssembly()).putVarInt(c.module());
                ints(buff, c.subAssemblies());
            }
            case Base b -> {
                buff.put((byte) 8);
                str(buff, b.type());
                buff.putVarInt(b.buildDate()).putVarInt(b.superAssembly()).putVarInt(b.module());
                ints(buff, b.componentsPriv());
                ints(buff, b.componentsShar());
            }
        }
    }

    @Override
    public Rec read(ByteBuffer buff) {
        int tag = buff.get();
        return switch (tag) {
            case 1 -> new Atomic(str(buff), vi(buff), vi(buff), vi(buff), vi(buff), vi(buff), ints(buff), ints(buff));
            case 2 -> new Conn(str(buff), vi(buff), vi(buff), vi(buff));
            case 3 -> new Composite(str(buff), vi(buff), vi(buff), vi(buff), ints(buff), ints(buff), ints(buff));
            case 4 -> new Doc(str(buff), vi(buff), str(buff));
            case 5 -> new Man(str(buff), vi(buff), str(buff));
            case 6 -> new Mod(str(buff), vi(buff), vi(buff), vi(buff), ints(buff));
            case 7 -> new Complex(str(buff), vi(buff), vi(buff), vi(buff), ints(buff));
            case 8 -> new Base(str(buff), vi(buff), vi(buff), vi(buff), ints(buff), ints(buff));
            default ->
                throw new IllegalStateException(
                        "OO7 record with unknown tag " + tag + " at buffer position " + (buff.position() - 1));
        };
    }

    @Override
    public Rec[] createStorage(int size) {
        return new Rec[size];
    }

    private static void str(WriteBuffer buff, String s) {
        StringDataType.INSTANCE.write(buff, s);
    }

    private static String str(ByteBuffer buff) {
        return StringDataType.INSTANCE.read(buff);
    }

    private static int vi(ByteBuffer buff) {
        return DataUtils.readVarInt(buff);
    }

    private static void ints(WriteBuffer buff, int[] a) {
        buff.putVarInt(a.length);
        for (int v : a) {
            buff.putVarInt(v);
        }
    }

    private static int[] ints(ByteBuffer buff) {
        int[] a = new int[DataUtils.readVarInt(buff)];
        for (int i = 0; i < a.length; i++) {
            a[i] = DataUtils.readVarInt(buff);
        }
        return a;
    }
}
