package dev.quickstore.cli.oo7;

import dev.quickstore.api.ObjectPadding;
import dev.quickstore.core.options.FramesMode;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.options.WriteDetection;
import dev.quickstore.oo7.Oo7Store;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The systems OO7 runs on. */
enum SystemUnderTest {
    /** The OO7 model as plain Java heap objects: the transient baseline. */
    heap("heap", null, WriteDetection.PAGE_PROTECTION),
    /** The mapped persistent store (QuickStore/J): generated objects in the memory-mapped arena. */
    qs("qs", ObjectPadding.NONE, WriteDetection.PAGE_PROTECTION),
    /** {@code qs-cards}: the mapped store with card marking instead of page protection (Hosking and Moss). */
    qs_cards("qs-cards", ObjectPadding.NONE, WriteDetection.CARD_MARKING),
    /**
     * {@code qs-objects}: the mapped store with object marking (Hosking and Moss): the barrier marks the
     * object it writes, commit diffs the marked objects.
     */
    qs_objects("qs-objects", ObjectPadding.NONE, WriteDetection.OBJECT_MARKING),
    /**
     * {@code qs-remsets}: the mapped store with remembered sets (Hosking and Moss): the barrier records the
     * word it writes, commit diffs those words.
     */
    qs_remsets("qs-remsets", ObjectPadding.NONE, WriteDetection.REMEMBERED_SETS),
    /**
     * {@code qs-scan}: the mapped store with scanning (Hosking and Moss): no barrier, a pre-image of every
     * resident page, commit diffs every resident page.
     */
    qs_scan("qs-scan", ObjectPadding.NONE, WriteDetection.SCANNING),
    /**
     * {@code qs-kernel}: the mapped store with kernel write tracking (Linux 6.7+): page protection until a page's
     * first commit, then no write faults and no re-protection; the kernel records the stores (docs/native.md).
     */
    qs_kernel("qs-kernel", ObjectPadding.NONE, WriteDetection.KERNEL_TRACKING),
    /**
     * QS-B (White and DeWitt 1994 section 4): the mapped store with every object padded to the size of an
     * OID-based layout ({@link ObjectPadding#OID_LAYOUT}); same classes and OO7 code as {@link #qs}.
     */
    qs_b("qs-b", ObjectPadding.OID_LAYOUT, WriteDetection.PAGE_PROTECTION),
    /**
     * E / EPVM 3.0 (White and DeWitt 1994 section 4.5): software persistence, FramesMode.SOFTWARE
     * (docs/software-mode.md): references are OIDs, pages read explicitly into the buffer pool, an in-line
     * residency check per dereference and a software write barrier; the same OO7 code through the
     * generated {@code $Soft} classes.
     */
    e("e", ObjectPadding.NONE, WriteDetection.PAGE_PROTECTION),
    /**
     * {@code qs-cs}: the mapped store as a page server's client (White and DeWitt 1994 ran QuickStore on the
     * EXODUS server): the same objects and operations, every page faulted in over a socket from {@code qs
     * serve} in another process ({@code --server}, or a server this run starts over a store it builds).
     */
    qs_cs("qs-cs", ObjectPadding.NONE, WriteDetection.PAGE_PROTECTION),
    /**
     * Eclipse Store 2.1.3 (store-peers): the object graph on the heap, {@code Lazy} references, {@code store()}
     * of the changed objects at commit, forced to the device.
     */
    eclipsestore(
            "eclipsestore",
            null,
            WriteDetection.PAGE_PROTECTION,
            true,
            List.of("--sun-misc-unsafe-memory-access=allow")),
    /**
     * LMDB through lmdbjava (store-peers): records keyed by OID, one write transaction per operation. Its flags
     * are the ones its peer's tests run with (store-peers' {@code qs.peers.jvmFlags}): lmdbjava reaches into
     * {@code java.nio} buffers.
     */
    lmdb(
            "lmdb",
            null,
            WriteDetection.PAGE_PROTECTION,
            true,
            List.of("--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED")),
    /** H2 MVStore (store-peers): {@code MVMap}s with a custom data type, {@code commit()} per transaction. */
    mvstore("mvstore", null, WriteDetection.PAGE_PROTECTION, true, List.of());

    private final String label;
    private final ObjectPadding padding;
    private final WriteDetection detection;
    private final boolean peer;
    private final List<String> jvmFlags;

    SystemUnderTest(String label, ObjectPadding padding, WriteDetection detection) {
        this(label, padding, detection, false, List.of());
    }

    SystemUnderTest(
            String label, ObjectPadding padding, WriteDetection detection, boolean peer, List<String> jvmFlags) {
        this.label = label;
        this.padding = padding;
        this.detection = detection;
        this.peer = peer;
        this.jvmFlags = jvmFlags;
    }

    /** The names {@code --system} accepts, in declaration order, as the usage errors list them. */
    static String names() {
        return java.util.Arrays.stream(values())
                .map(SystemUnderTest::label)
                .toList()
                .toString();
    }

    /**
     * The storage-manager options of this system: {@link StoreOptions#defaults()} with the run's {@code qs.*}
     * settings ({@code properties}, from --pool-pages, --replacement, --relocate, --relocation) and this
     * system's write detection. No system property is set.
     */
    StoreOptions storeOptions(Map<String, String> properties) {
        StoreOptions.Builder b =
                StoreOptions.defaults().toBuilder().fromProperties(properties).writeDetection(detection);
        if (this == e) {
            b.frames(FramesMode.SOFTWARE);
        }
        return b.build();
    }

    /** The name on the command line and in reports (also {@link Oo7Store#name()}). */
    String label() {
        return label;
    }

    /** Whether this is a mapped store (it has a directory, a database size and cold runs). */
    boolean mapped() {
        return padding != null;
    }

    /**
     * Whether this is a peer (store-peers, opened by {@link dev.quickstore.peers.Peers#open}): a directory, a
     * database size on disk and cold runs, like a mapped store, but no pages and no faults.
     */
    boolean peer() {
        return peer;
    }

    /**
     * The JVM options this system needs on JDK 25 beyond {@code --enable-native-access} (docs/peers.md, "OO7
     * peers"): given to the fresh JVMs of {@code --cold process}.
     */
    List<String> jvmFlags() {
        return jvmFlags;
    }

    ObjectPadding padding() {
        return padding;
    }

    /** Whether this system is a page server's client. */
    boolean clientServer() {
        return this == qs_cs;
    }

    static SystemUnderTest of(String option, String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        for (SystemUnderTest s : values()) {
            if (s.label.equals(v)) {
                return s;
            }
        }
        throw new IllegalArgumentException(option + ": unknown system '" + value + "'; expected one of " + names());
    }
}
