package dev.quickstore.core;

import dev.quickstore.core.buffer.Addresses;
import dev.quickstore.core.buffer.CardBarrier;
import dev.quickstore.core.buffer.KernelDetection;
import dev.quickstore.core.buffer.MappedFrames;
import dev.quickstore.core.buffer.ObjectMarkingBarrier;
import dev.quickstore.core.buffer.OffHeapFrames;
import dev.quickstore.core.buffer.PageFrames;
import dev.quickstore.core.buffer.PlacementFile;
import dev.quickstore.core.buffer.RememberedSetBarrier;
import dev.quickstore.core.buffer.ScanningDetection;
import dev.quickstore.core.buffer.SoftwareFrames;
import dev.quickstore.core.buffer.WriteBarrier;
import dev.quickstore.core.error.StoreFormatException;
import dev.quickstore.core.options.CommitLogging;
import dev.quickstore.core.options.FramesMode;
import dev.quickstore.core.options.Relocation;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.options.WriteDetection;
import dev.quickstore.core.software.SwizzlingFrames;
import dev.quickstore.core.volume.FileIO;
import dev.quickstore.core.volume.Volume;
import dev.quickstore.core.volume.VolumeFile;
import dev.quickstore.core.volume.VolumeHeader;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The page frames and the write detection an embedded store runs with, as its {@link StoreOptions} select them
 * (docs/architecture-core.md, "The seam: PageFrames"): Texas mode's mapped frames (docs/texas-mode.md), the
 * mapped arena of {@link FramesMode#MAPPED} with its card table set for the chosen {@link WriteDetection},
 * software persistence's swizzling frames ({@link FramesMode#SOFTWARE}, docs/software-mode.md), or off-heap frames
 * ({@link FramesMode#EXPLICIT}); and the {@link WriteBarrier} over them. {@link Store}'s opening calls it at its
 * step "frames", after the volume header was read.
 *
 * <p>Invariants: {@link #mapped} is the frames themselves in Texas and MAPPED mode and null otherwise; {@link
 * #placement} is non-null only in MAPPED mode (the arena's placement file, if one was written); a volume's
 * reference form (OIDs or virtual addresses, fixed at creation) agrees with the frames mode, or nothing opens.
 */
final class FramesByOptions {
    final PageFrames frames;
    /** The frames if they are mapped (Texas or MAPPED mode), else null. */
    final MappedFrames mapped;
    /** Store references: the arena base and page size (the base is the mapped arena's, else the preferred one). */
    final Addresses addresses;
    /** The placement file read at open (MAPPED mode only; null if none was written). */
    final PlacementFile placement;
    /** Whether the store opened in Texas mode ({@link TexasMode#check}). */
    final boolean texas;

    private FramesByOptions(
            PageFrames frames, MappedFrames mapped, Addresses addresses, PlacementFile placement, boolean texas) {
        this.frames = frames;
        this.mapped = mapped;
        this.addresses = addresses;
        this.placement = placement;
        this.texas = texas;
    }

    /**
     * Opens the frames {@code options} select for the volume {@code vol} of store {@code dir} with the header
     * {@code header}. On failure nothing stays open.
     */
    static FramesByOptions open(FileIO io, Path dir, VolumeHeader header, Volume vol, StoreOptions options)
            throws IOException {
        int pageSize = header.pageSize();
        MappedFrames mf = null;
        boolean ok = false;
        try {
            FramesByOptions opened;
            boolean texas = TexasMode.check(dir, header, options);
            if (texas) {
                mf = MappedFrames.openTexas(
                        io.nativePath(VolumeFile.volumePath(dir)),
                        pageSize,
                        options.bufferPoolPages(),
                        options.arenaBytes(),
                        Math.max(header.pageCount(), (vol.fileSize() + pageSize - 1) / pageSize));
                Addresses addresses = new Addresses(mf.arena().base(), pageSize);
                addresses.texas(mf.texas());
                opened = new FramesByOptions(mf, mf, addresses, null, true);
            } else if (options.frames() == FramesMode.MAPPED) {
                long pages = Math.max(header.pageCount(), (vol.fileSize() + pageSize - 1) / pageSize);
                PlacementFile placement = PlacementFile.read(io, dir);
                mf = MappedFrames.open(
                        io.nativePath(VolumeFile.volumePath(dir)),
                        pageSize,
                        options.bufferPoolPages(),
                        placement != null ? placement.arenaBase() : header.preferredArenaBase(),
                        options.arenaBytes(),
                        pages,
                        dir.toString());
                selectCards(mf, options, pageSize);
                selectMinorFaults(mf, options); // after the cards: the view takes the clean protection they set
                opened = new FramesByOptions(mf, mf, new Addresses(mf.arena().base(), pageSize), placement, false);
            } else if (options.frames() == FramesMode.SOFTWARE) {
                opened = new FramesByOptions(
                        new SoftwareFrames(new SwizzlingFrames(pageSize, options.bufferPoolPages())),
                        null,
                        new Addresses(header.preferredArenaBase(), pageSize),
                        null,
                        false);
            } else {
                opened = new FramesByOptions(
                        new OffHeapFrames(pageSize, options.bufferPoolPages()),
                        null,
                        new Addresses(header.preferredArenaBase(), pageSize),
                        null,
                        false);
            }
            ok = true;
            return opened;
        } finally {
            if (!ok && mf != null) {
                try {
                    mf.close();
                } catch (RuntimeException e) {
                    // already failing: the original exception is the one to report
                }
            }
        }
    }

    /**
     * Whether a mapped store's cold loads are mapped by userfaultfd minor faults where the kernel allows it ({@link
     * dev.quickstore.mmu.FrameLoading#selectMinorFaults}); system property {@code qs.minorFaults}, default true; false
     * loads every frame through {@code mprotect} as QuickStore did (docs/results.md, "A cold read fault through
     * userfaultfd's minor faults").
     */
    static final boolean MINOR_FAULTS = Boolean.parseBoolean(System.getProperty("qs.minorFaults", "true"));

    /**
     * Cold loads by minor faults (MAPPED mode, before any frame is resident): not with kernel write tracking, which
     * registers the same view with its own userfaultfd. A refusal by the kernel or the process (no userfaultfd,
     * seccomp, a kernel before 5.14, the handler chained behind HotSpot's) leaves the loads to {@code mprotect}.
     */
    private static void selectMinorFaults(MappedFrames mf, StoreOptions options) {
        if (MINOR_FAULTS && options.writeDetection() != WriteDetection.KERNEL_TRACKING) {
            mf.arena().loading().selectMinorFaults();
        }
    }

    /** The mapped arena's card table as the write detection needs it, and write-ahead (MAPPED mode). */
    private static void selectCards(MappedFrames mf, StoreOptions options, int pageSize) {
        if (options.writeDetection() == WriteDetection.CARD_MARKING) {
            if (options.cardBytes() > pageSize || options.cardBytes() < pageSize / 64) {
                throw new IllegalArgumentException("cardBytes " + options.cardBytes() + " outside ["
                        + Math.max(64, pageSize / 64) + ", " + pageSize + "] for " + pageSize + "-byte pages");
            }
            mf.arena().cardTable().select(Integer.numberOfTrailingZeros(options.cardBytes()));
        } else if (options.writeDetection() == WriteDetection.OBJECT_MARKING
                || options.writeDetection() == WriteDetection.REMEMBERED_SETS) {
            // their barriers capture pre-images through native cards of one page each
            mf.arena().cardTable().select(Integer.numberOfTrailingZeros(pageSize));
        } else if (options.writeDetection() == WriteDetection.SCANNING) {
            mf.arena().cardTable().selectScanning();
        } else if (options.writeDetection() == WriteDetection.KERNEL_TRACKING) {
            KernelDetection.select(mf, options);
        }
        if (options.commitLogging() == CommitLogging.PAGE_DIFFS) {
            // write-ahead (page protection only, native checks): a claimed page left alone costs an empty diff;
            // full-page logging would log it whole, and a page-server client never comes through here
            mf.writeAhead(MappedFrames.WRITE_AHEAD_FRAMES);
        }
    }

    /**
     * The write-detection scheme over the frames: the card barrier itself (page protection, card marking, and
     * every mode without mapped frames), or a barrier built on it.
     */
    static WriteBarrier barrier(MappedFrames mf, CardBarrier cards, WriteDetection detection) {
        return mf == null
                ? cards
                : switch (detection) {
                    case OBJECT_MARKING -> new ObjectMarkingBarrier(mf, cards);
                    case REMEMBERED_SETS -> new RememberedSetBarrier(mf, cards);
                    case SCANNING -> new ScanningDetection(mf);
                    case KERNEL_TRACKING -> new KernelDetection(mf);
                    case PAGE_PROTECTION, CARD_MARKING -> cards;
                };
    }

    /**
     * The reference form a new volume is created with for {@code options} (the volume header's pointer format):
     * OIDs for FramesMode.SOFTWARE, Texas mode's persistent pointers, else virtual addresses.
     */
    static int pointerFormat(StoreOptions options) {
        return options.frames() == FramesMode.SOFTWARE
                ? VolumeHeader.POINTERS_OID
                : options.relocation() == Relocation.TEXAS
                        ? VolumeHeader.POINTERS_TEXAS
                        : VolumeHeader.POINTERS_VIRTUAL;
    }

    /**
     * A volume whose references are OIDs (pointer format {@value VolumeHeader#POINTERS_OID}) opens only with
     * FramesMode.SOFTWARE, one whose references are virtual addresses only with the hardware modes.
     */
    static void checkReferenceForm(VolumeHeader header, FramesMode mode, String file) {
        if (header.softwareReferences() == (mode == FramesMode.SOFTWARE)) {
            return;
        }
        String expected = mode == FramesMode.SOFTWARE
                ? VolumeHeader.POINTERS_OID + " (FramesMode.SOFTWARE: references are OIDs)"
                : "not " + VolumeHeader.POINTERS_OID + " (FramesMode." + mode + ": references are not OIDs)";
        String actual = header.softwareReferences()
                ? header.pointerFormat() + " (a FramesMode.SOFTWARE store: references are OIDs); open it with"
                        + " FramesMode.SOFTWARE (-Dqs.frames=SOFTWARE)"
                : header.pointerFormat() + " (" + VolumeHeader.pointerFormatName(header.pointerFormat())
                        + ": a FramesMode.MAPPED/EXPLICIT store); open it with FramesMode.MAPPED or EXPLICIT";
        throw new StoreFormatException(
                file, 0, VolumeHeader.POINTER_FORMAT_OFFSET, "volume mode (pointer format)", expected, actual);
    }
}
