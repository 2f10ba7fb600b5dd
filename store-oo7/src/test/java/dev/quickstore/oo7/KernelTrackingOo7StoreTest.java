package dev.quickstore.oo7;

import dev.quickstore.core.options.WriteDetection;
import dev.quickstore.mmu.KernelTracking;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;

/**
 * The OO7 small-database contract under kernel write tracking ({@link WriteDetection#KERNEL_TRACKING}); skipped,
 * saying why, where the kernel or the process cannot use userfaultfd write-protection.
 */
class KernelTrackingOo7StoreTest extends WriteDetectionOo7Contract {
    @BeforeEach
    void kernelTrackingAvailable() {
        String why = KernelTracking.unavailableReason();
        Assumptions.assumeTrue(why == null, () -> "kernel write tracking: " + why);
    }

    @Override
    WriteDetection detection() {
        return WriteDetection.KERNEL_TRACKING;
    }
}
