package dev.quickstore.core.options;

/**
 * What a commit logs for each page the transaction dirtied (the REDO records of {@code TransactionManager.commit};
 * docs/architecture-core.md, "Commit logging"). Both are alternatives Shekita and Zwilling list for Cricket's
 * regular data (1990, section 5.3, "Recovery"): "simply log full pages at commit" and a copy-on-write mechanism
 * where "at commit, the new version of the page is compared to its original and the changed portions are logged".
 *
 * <ul>
 *   <li>{@link #PAGE_DIFFS} (default, QuickStore's and Cricket's second alternative): the page is diffed against
 *       its pre-image ({@code PageDiff}) and only the changed byte ranges (merged by QuickStore's gap rule) are
 *       logged.</li>
 *   <li>{@link #FULL_PAGES} (Cricket's first alternative): no diff; every dirty page is logged whole as one range
 *       covering bytes {@code 4 .. pageSize} (everything but the page's checksum word, which is recomputed when
 *       a page is written). The record format is unchanged - it is a REDO record whose one range covers the
 *       page - so recovery redoes it like any other. More log bytes, no diffing.</li>
 * </ul>
 *
 * Steals (UPDATE records with before and after images, written when a running transaction's page must leave a
 * full pool) are diffs in both modes. The setting is a property of the opened store, not of the volume: a store
 * may be reopened with the other mode at any time.
 */
public enum CommitLogging {
    PAGE_DIFFS,
    FULL_PAGES;
}
