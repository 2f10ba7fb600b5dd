package dev.quickstore.core;

import dev.quickstore.core.error.StoreException;
import dev.quickstore.core.options.FramesMode;
import dev.quickstore.core.options.Relocation;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.options.WriteDetection;
import dev.quickstore.core.volume.VolumeHeader;
import java.nio.file.Path;

/**
 * Whether a store opens in Texas mode (docs/texas-mode.md; Kakkad and Wilson 1999): the volume header's pointer
 * format, fixed at creation, decides, and the options must agree - a volume whose slotted pages hold persistent
 * pointers read as virtual addresses (or the reverse) would follow garbage, so a mismatch is refused before any
 * page is read, naming the store, the header field and the option that fixes it.
 */
final class TexasMode {
    private TexasMode() {}

    /** True for a Texas store opened as one; throws {@link StoreException} on any mismatch. */
    static boolean check(Path dir, VolumeHeader header, StoreOptions options) {
        boolean volume = header.pointerFormat() == VolumeHeader.POINTERS_TEXAS;
        boolean asked = options.relocation() == Relocation.TEXAS;
        if (volume != asked) {
            throw new StoreException("store " + dir + " stores its references as "
                    + VolumeHeader.pointerFormatName(header.pointerFormat()) + " (volume header, offset "
                    + VolumeHeader.POINTER_FORMAT_OFFSET + ") but was opened with Relocation." + options.relocation()
                    + ": open it with Relocation." + (volume ? "TEXAS" : "CONTINUAL or ONE_TIME")
                    + " (the pointer format is fixed when a store is created)");
        }
        if (!volume) {
            return false;
        }
        if (options.frames() != FramesMode.MAPPED) {
            throw new StoreException("store " + dir + " is a Texas store: its pointers are swizzled by the fault path,"
                    + " which needs FramesMode.MAPPED (opened with FramesMode." + options.frames() + ")");
        }
        if (options.writeDetection() != WriteDetection.PAGE_PROTECTION) {
            throw new StoreException("store " + dir + " is a Texas store: Texas mode detects writes by page"
                    + " protection (opened with WriteDetection." + options.writeDetection() + ")");
        }
        return true;
    }
}
