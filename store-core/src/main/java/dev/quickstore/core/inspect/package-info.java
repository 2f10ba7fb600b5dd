/**
 * Read-only views of a store's files for tools (the {@code qs} admin shell): decoded pages, slots,
 * objects with their pointer fields, log records, log state and space usage. Produced by
 * {@link dev.quickstore.core.inspect.StoreInspector}, which reads the files directly (no lock, no recovery),
 * so every view shows what is on disk.
 */
package dev.quickstore.core.inspect;
