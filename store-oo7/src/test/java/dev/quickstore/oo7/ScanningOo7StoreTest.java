package dev.quickstore.oo7;

import dev.quickstore.core.options.WriteDetection;

/** The OO7 small-database contract under scanning ({@link WriteDetection#SCANNING}). */
class ScanningOo7StoreTest extends WriteDetectionOo7Contract {
    @Override
    WriteDetection detection() {
        return WriteDetection.SCANNING;
    }
}
