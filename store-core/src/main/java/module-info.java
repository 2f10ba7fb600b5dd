/**
 * QuickStore/J's storage manager and persistent object API (docs/architecture-core.md).
 *
 * <p>Exported to everyone: the object API ({@code dev.quickstore.api}); the storage-manager facade
 * ({@code dev.quickstore.core}: Store, Transaction, Index) with the vocabulary its signatures use (options,
 * errors, index key types, statistics, verification reports); read-only inspection for tools; the volume's
 * file layout and header ({@code core.volume}: what the admin shell's create, backup and restore read). The
 * mechanisms (page, space, buffer, log, recovery, txn, btree) are not exported. This project's own tools
 * (store-oo7, store-cli, jmh) run on the class path, where a module's packages are all readable; which of
 * the internals each may use is a rule checked by tests (ArchUnit, {@code LayeringTest}).
 *
 * <p>Observability (docs/observability.md): JFR events ({@code dev.quickstore.core.events}, internal) and a
 * {@link dev.quickstore.core.stats.StoreMXBean} per open store in the platform MBean server.
 *
 * <p>{@code dev.quickstore.api.internal} is exported because the code that {@code store-processor} generates
 * into the user's own packages links against it; it is not API (no compatibility promise), and user code
 * should never name it.
 */
module dev.quickstore.core {
    requires transitive dev.quickstore.mmu;
    requires jdk.jfr; // the events of dev.quickstore.core.events (not exported: JFR opens them to itself)
    requires java.management; // the StoreMXBean of every open store

    exports dev.quickstore.api;
    exports dev.quickstore.api.internal;
    exports dev.quickstore.core;
    exports dev.quickstore.core.error;
    exports dev.quickstore.core.index;
    exports dev.quickstore.core.inspect;
    exports dev.quickstore.core.options;
    // software persistence's residency check (docs/software-mode.md): called by the accessors generated for
    // FramesMode.SOFTWARE, like api.internal; not API
    exports dev.quickstore.core.software;
    exports dev.quickstore.core.remote;
    exports dev.quickstore.core.stats;
    exports dev.quickstore.core.verify;
    exports dev.quickstore.core.volume;
}
