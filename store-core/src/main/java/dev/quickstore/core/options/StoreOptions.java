package dev.quickstore.core.options;

import dev.quickstore.mmu.Replacement;
import java.util.Objects;

/**
 * How a {@link dev.quickstore.core.Store} is opened: the tuning knobs, validated once here. Build one with {@link #builder()}
 * (every knob has a default) or start from {@link #defaults()} (the defaults with the {@code qs.*} system
 * properties applied, see {@link StoreProperties}) and change single knobs with the {@code with} methods.
 *
 * <pre>{@code
 * StoreOptions o = StoreOptions.builder().bufferPoolPages(1024).writeDetection(WriteDetection.CARD_MARKING).build();
 * }</pre>
 *
 * @param bufferPoolPages frames in the buffer pool (a transaction may dirty more: steal); at least 8
 * @param logSegmentBytes size of a log segment file (fixed when the store is first opened); at least 256 KiB
 * @param checkpointLogBytes a checkpoint is taken after a commit when this much log was written since the last
 * @param frames how pages are held and writes detected ({@link FramesMode#MAPPED} by default)
 * @param arenaBytes virtual bytes reserved for the arena in MAPPED mode (bounds the volume size); at least 1 MiB
 * @param replacement the buffer pool's replacement policy (MAPPED mode; EXPLICIT always uses
 *     {@link Replacement#STORE_CLOCK})
 * @param relocation how relocated pages are handled (MAPPED mode)
 * @param relocateFraction for experiments: the fraction (0..1) of pages placed at frames other than their
 *     preferred ones even when the preferred base is free (0 = relocate only if the base is taken)
 * @param writeDetection how application stores are detected (MAPPED mode)
 * @param cardBytes card size for {@link WriteDetection#CARD_MARKING}: a power of two, at least 64 and at least
 *     pageSize / 64, at most pageSize (the page-size bounds are checked when the store opens)
 * @param commitLogging what a commit logs per dirty page: its changed ranges (default) or the whole page
 */
public record StoreOptions(
        int bufferPoolPages,
        long logSegmentBytes,
        long checkpointLogBytes,
        FramesMode frames,
        long arenaBytes,
        Replacement replacement,
        Relocation relocation,
        double relocateFraction,
        WriteDetection writeDetection,
        int cardBytes,
        CommitLogging commitLogging) {

    /** Virtual address space reserved for the arena by default: 64 GiB (MAP_NORESERVE: costs nothing). */
    public static final long DEFAULT_ARENA_BYTES = 64L << 30;

    /**
     * Default card size for {@link WriteDetection#CARD_MARKING}: 512 bytes, 16 cards per 8 KiB page. Small
     * enough that a sparse update (an OO7 atomic part is ~80 bytes) diffs one card instead of a page, large
     * enough that the table costs 1/512 of the arena (virtual, NORESERVE) and a page's cards fit one long.
     */
    public static final int DEFAULT_CARD_BYTES = 512;

    /** Default buffer pool: 4096 frames (32 MiB of 8 KiB pages). */
    public static final int DEFAULT_POOL_PAGES = 4096;

    /** Default log segment size and checkpoint interval: 64 MiB. */
    public static final long DEFAULT_LOG_BYTES = 64L << 20;

    public StoreOptions {
        Objects.requireNonNull(frames, "frames");
        Objects.requireNonNull(replacement, "replacement");
        Objects.requireNonNull(relocation, "relocation");
        Objects.requireNonNull(writeDetection, "writeDetection");
        Objects.requireNonNull(commitLogging, "commitLogging");
        if (cardBytes < 64 || Integer.bitCount(cardBytes) != 1) {
            throw new IllegalArgumentException("cardBytes " + cardBytes + " is not a power of two >= 64");
        }
        if (bufferPoolPages < 8) {
            throw new IllegalArgumentException("bufferPoolPages " + bufferPoolPages + " < 8");
        }
        if (logSegmentBytes < 1 << 18) {
            throw new IllegalArgumentException("logSegmentBytes " + logSegmentBytes + " < 256 KiB");
        }
        if (arenaBytes < 1 << 20) {
            throw new IllegalArgumentException("arenaBytes " + arenaBytes + " < 1 MiB");
        }
        if (!(relocateFraction >= 0 && relocateFraction <= 1)) {
            throw new IllegalArgumentException("relocateFraction " + relocateFraction + " outside [0, 1]");
        }
    }

    /**
     * The given pool and log sizes; frames mode, write detection and card size from the system properties
     * ({@link StoreProperties}: {@code qs.frames}, {@code qs.writeDetection}, {@code qs.cardBytes}); the
     * default arena, simplified clock and QS-CR relocation only when needed.
     */
    public StoreOptions(int bufferPoolPages, long logSegmentBytes, long checkpointLogBytes) {
        this(builder()
                .bufferPoolPages(bufferPoolPages)
                .logSegmentBytes(logSegmentBytes)
                .checkpointLogBytes(checkpointLogBytes)
                .fromSystemProperties(false));
    }

    private StoreOptions(Builder b) {
        this(
                b.bufferPoolPages,
                b.logSegmentBytes,
                b.checkpointLogBytes,
                b.frames,
                b.arenaBytes,
                b.replacement,
                b.relocation,
                b.relocateFraction,
                b.writeDetection,
                b.cardBytes,
                b.commitLogging);
    }

    /**
     * 4096 pool frames, 64 MiB log segments and checkpoint interval, with every {@code qs.*} system property
     * applied ({@link StoreProperties}): for experiments through APIs that take no options (the object API,
     * the OO7 driver).
     */
    public static StoreOptions defaults() {
        return builder().fromSystemProperties(true).build();
    }

    /** A builder with the built-in defaults (no system property read). */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these options. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.bufferPoolPages = bufferPoolPages;
        b.logSegmentBytes = logSegmentBytes;
        b.checkpointLogBytes = checkpointLogBytes;
        b.frames = frames;
        b.arenaBytes = arenaBytes;
        b.replacement = replacement;
        b.relocation = relocation;
        b.relocateFraction = relocateFraction;
        b.writeDetection = writeDetection;
        b.cardBytes = cardBytes;
        b.commitLogging = commitLogging;
        return b;
    }

    public StoreOptions withBufferPoolPages(int pages) {
        return toBuilder().bufferPoolPages(pages).build();
    }

    public StoreOptions withFrames(FramesMode mode) {
        return toBuilder().frames(mode).build();
    }

    public StoreOptions withArenaBytes(long bytes) {
        return toBuilder().arenaBytes(bytes).build();
    }

    public StoreOptions withReplacement(Replacement r) {
        return toBuilder().replacement(r).build();
    }

    /** Relocation policy and the fraction of pages relocated on purpose (experiments; 0 = only if needed). */
    public StoreOptions withRelocation(Relocation r, double fraction) {
        return toBuilder().relocation(r).relocateFraction(fraction).build();
    }

    /** Write detection (MAPPED mode); card marking uses {@link #cardBytes()}. */
    public StoreOptions withWriteDetection(WriteDetection d) {
        return toBuilder().writeDetection(d).build();
    }

    /** Card marking with cards of {@code bytes} (a power of two). */
    public StoreOptions withCardMarking(int bytes) {
        return toBuilder()
                .writeDetection(WriteDetection.CARD_MARKING)
                .cardBytes(bytes)
                .build();
    }

    /** What commits log per dirty page ({@link CommitLogging}). */
    public StoreOptions withCommitLogging(CommitLogging c) {
        return toBuilder().commitLogging(c).build();
    }

    /** Collects knobs; {@link #build()} validates them. */
    public static final class Builder {
        private int bufferPoolPages = DEFAULT_POOL_PAGES;
        private long logSegmentBytes = DEFAULT_LOG_BYTES;
        private long checkpointLogBytes = DEFAULT_LOG_BYTES;
        private FramesMode frames = FramesMode.MAPPED;
        private long arenaBytes = DEFAULT_ARENA_BYTES;
        private Replacement replacement = Replacement.SIMPLIFIED_CLOCK;
        private Relocation relocation = Relocation.CONTINUAL;
        private double relocateFraction;
        private WriteDetection writeDetection = WriteDetection.PAGE_PROTECTION;
        private int cardBytes = DEFAULT_CARD_BYTES;
        private CommitLogging commitLogging = CommitLogging.PAGE_DIFFS;

        private Builder() {}

        public Builder bufferPoolPages(int v) {
            bufferPoolPages = v;
            return this;
        }

        public Builder logSegmentBytes(long v) {
            logSegmentBytes = v;
            return this;
        }

        public Builder checkpointLogBytes(long v) {
            checkpointLogBytes = v;
            return this;
        }

        public Builder frames(FramesMode v) {
            frames = v;
            return this;
        }

        public Builder arenaBytes(long v) {
            arenaBytes = v;
            return this;
        }

        public Builder replacement(Replacement v) {
            replacement = v;
            return this;
        }

        public Builder relocation(Relocation v) {
            relocation = v;
            return this;
        }

        public Builder relocateFraction(double v) {
            relocateFraction = v;
            return this;
        }

        public Builder writeDetection(WriteDetection v) {
            writeDetection = v;
            return this;
        }

        public Builder cardBytes(int v) {
            cardBytes = v;
            return this;
        }

        public Builder commitLogging(CommitLogging v) {
            commitLogging = v;
            return this;
        }

        /**
         * Applies the {@code qs.*} system properties that are set ({@link StoreProperties}); with {@code all}
         * false only those that the three-argument constructor has always read (frames mode, write detection,
         * card size), so that explicitly sized options do not pick up {@code qs.poolPages}.
         */
        public Builder fromSystemProperties(boolean all) {
            StoreProperties.apply(this, all);
            return this;
        }

        /**
         * Applies the {@code qs.*} settings of {@code properties} (names and values as the system properties
         * of {@link StoreProperties}; absent ones keep this builder's values). For tools that take them as
         * options: no system property is read or set.
         *
         * @throws IllegalArgumentException a bad value, naming the property and the valid values
         */
        public Builder fromProperties(java.util.Map<String, String> properties) {
            StoreProperties.apply(this, true, properties::get);
            return this;
        }

        public StoreOptions build() {
            return new StoreOptions(this);
        }
    }
}
