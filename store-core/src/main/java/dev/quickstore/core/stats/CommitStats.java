package dev.quickstore.core.stats;

/**
 * Where commit time went, cumulative since this store was opened (White and DeWitt 1994, Table 6 style).
 * All times are {@link System#nanoTime()} differences taken inside {@code Transaction.commit()} under the
 * store latch; {@code preimage + reprotect + stable + diff + append + flush <= log} and {@code log +
 * checkpoint <= total}.
 *
 * @param commits committed transactions
 * @param pages transaction-dirty pages examined at commit
 * @param redoRecords REDO records written at commit
 * @param redoBytes bytes of those records
 * @param preimageNanos per dirty page: copying the pre-image and converting it to disk form, or, where commit diffs
 *     against the pre-images the clean call hands over (identity placement), reading the cards and releasing them
 * @param reprotectNanos per dirty page: ending the dirty state (write-protecting the frame again; the call that hands
 *     the pre-images over)
 * @param stableNanos per dirty page: taking the stable (disk-form) image of the current page
 * @param diffNanos page diffing and REDO record encoding
 * @param appendNanos appending the records to the log buffer (including writes of full buffers)
 * @param flushNanos the COMMIT record and the group-commit flush: log write and fsync
 * @param logNanos the whole log part of commit (the four above plus loop overhead)
 * @param checkpointNanos checkpoints taken after commits (write-back of dirty pages, log truncation)
 * @param totalNanos the whole of commit after the refusal check: log, end of transaction, checkpoint
 * @param cardPages card marking: dirty pages diffed by their marked cards only (the rest of {@code pages} were
 *     diffed whole: page protection, or pages the storage manager dirtied itself)
 * @param cards card marking: marked cards diffed on those pages
 */
public record CommitStats(
        long commits,
        long pages,
        long redoRecords,
        long redoBytes,
        long preimageNanos,
        long reprotectNanos,
        long stableNanos,
        long diffNanos,
        long appendNanos,
        long flushNanos,
        long logNanos,
        long checkpointNanos,
        long totalNanos,
        long cardPages,
        long cards) {}
