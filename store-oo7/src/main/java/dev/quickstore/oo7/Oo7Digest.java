package dev.quickstore.oo7;

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
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * A SHA-256 digest over every reachable object of an OO7 database and every attribute and relationship
 * (references by id, collections in order), independent of the store. Equal digests mean equal databases:
 * use it to check that a build is deterministic and that two stores hold the same database.
 *
 * <p>Covered: modules in id order with their manual and their whole assembly hierarchy in preorder (base
 * assemblies with both bags), then composite parts in id order with document, usage bags, atomic parts (all
 * attributes, outgoing connections with type, length and target, incoming connections by source).
 */
public final class Oo7Digest {
    private final MessageDigest md;
    private final byte[] buf = new byte[8];

    private Oo7Digest() {
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JDK", e);
        }
    }

    /** The digest of the database in {@code store}, as lowercase hex. Reads only; call inside a transaction. */
    public static String of(Oo7Store store) {
        Oo7Digest d = new Oo7Digest();
        for (Module m : store.modules()) {
            d.module(m);
        }
        store.forEachCompositePart(d::composite);
        return HexFormat.of().formatHex(d.md.digest());
    }

    private void module(Module m) {
        designObj('M', m);
        Manual man = m.man();
        integer(man.id());
        string(man.title());
        integer(man.textLen());
        text(man.text());
        integer(man.mod().id());
        assembly(m.designRoot());
        ids(m.assemblies());
    }

    private void assembly(Assembly a) {
        designObj(a instanceof ComplexAssembly ? 'C' : 'B', a);
        integer(a.superAssembly() == null ? 0 : a.superAssembly().id());
        integer(a.module().id());
        if (a instanceof ComplexAssembly complex) {
            integer(complex.subAssemblies().size());
            for (Assembly sub : complex.subAssemblies()) {
                assembly(sub);
            }
        } else {
            BaseAssembly ba = (BaseAssembly) a;
            ids(ba.componentsPriv());
            ids(ba.componentsShar());
        }
    }

    private void composite(CompositePart cp) {
        designObj('P', cp);
        Document doc = cp.documentation();
        integer(doc.id());
        string(doc.title());
        text(doc.text());
        integer(doc.part().id());
        ids(cp.usedInPriv());
        ids(cp.usedInShar());
        integer(cp.rootPart().id());
        integer(cp.parts().size());
        for (AtomicPart p : cp.parts()) {
            designObj('A', p);
            integer(p.x());
            integer(p.y());
            integer(p.docId());
            integer(p.partOf().id());
            integer(p.to().size());
            for (Connection c : p.to()) {
                string(c.type());
                integer(c.length());
                integer(c.from().id());
                integer(c.to().id());
            }
            integer(p.from().size());
            for (Connection c : p.from()) {
                integer(c.from().id());
            }
        }
    }

    private void designObj(char kind, DesignObj o) {
        integer(kind);
        integer(o.id());
        string(o.type());
        integer(o.buildDate());
    }

    private void ids(List<? extends DesignObj> objects) {
        integer(objects.size());
        for (DesignObj o : objects) {
            integer(o.id());
        }
    }

    private void string(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        integer(b.length);
        md.update(b);
    }

    private void text(CharSequence s) {
        string(s.toString());
    }

    private void integer(int v) {
        buf[0] = (byte) (v >>> 24);
        buf[1] = (byte) (v >>> 16);
        buf[2] = (byte) (v >>> 8);
        buf[3] = (byte) v;
        md.update(buf, 0, 4);
    }
}
