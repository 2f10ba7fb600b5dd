package dev.quickstore.oo7;

import dev.quickstore.core.options.WriteDetection;

/** The OO7 small-database contract under object marking ({@link WriteDetection#OBJECT_MARKING}). */
class ObjectMarkingOo7StoreTest extends WriteDetectionOo7Contract {
    @Override
    WriteDetection detection() {
        return WriteDetection.OBJECT_MARKING;
    }
}
