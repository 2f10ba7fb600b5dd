package dev.quickstore.oo7;

import dev.quickstore.core.options.WriteDetection;

/** The OO7 small-database contract under remembered sets ({@link WriteDetection#REMEMBERED_SETS}). */
class RememberedSetsOo7StoreTest extends WriteDetectionOo7Contract {
    @Override
    WriteDetection detection() {
        return WriteDetection.REMEMBERED_SETS;
    }
}
