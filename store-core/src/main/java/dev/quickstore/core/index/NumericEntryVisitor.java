package dev.quickstore.core.index;

/** Receives the entries of an INT or LONG B+tree in key order (key, 8-byte value); return false to stop. */
@FunctionalInterface
public interface NumericEntryVisitor {
    boolean visit(long key, long ref) throws java.io.IOException;
}
