package dev.quickstore.core.index;

/** Receives B+tree entries in key order (decoded key, 8-byte value); return false to stop. */
@FunctionalInterface
public interface EntryVisitor {
    boolean visit(Object key, long ref) throws java.io.IOException;
}
