package dev.quickstore.peers.mvstore;

/**
 * The OO7 objects as the immutable Java values the MVStore peer keeps in its {@link org.h2.mvstore.MVMap}s (an
 * MVMap holds values by reference in its in-memory pages and old versions share them, so a value is never
 * changed in place: an update puts a copy). References are ids, 0 for none; a complex assembly's
 * sub-assembly list holds complex ids and negated base ids. Encoded on disk by {@link MvRecordType}.
 */
final class MvRecords {
    private MvRecords() {}

    /** Any record; the tag is its encoding's first byte. */
    sealed interface Rec permits Atomic, Conn, Composite, Doc, Man, Mod, Complex, Base {}

    record Atomic(String type, int buildDate, int x, int y, int docId, int partOf, int[] to, int[] from)
            implements Rec {}

    record Conn(String type, int length, int from, int to) implements Rec {}

    record Composite(
            String type,
            int buildDate,
            int documentation,
            int rootPart,
            int[] usedInPriv,
            int[] usedInShar,
            int[] parts)
            implements Rec {}

    record Doc(String title, int part, String text) implements Rec {}

    record Man(String title, int mod, String text) implements Rec {}

    record Mod(String type, int buildDate, int man, int designRoot, int[] assemblies) implements Rec {}

    record Complex(String type, int buildDate, int superAssembly, int module, int[] subAssemblies) implements Rec {}

    record Base(String type, int buildDate, int superAssembly, int module, int[] componentsPriv, int[] componentsShar)
            implements Rec {}
}
