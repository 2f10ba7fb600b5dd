package dev.quickstore.cli;

import dev.quickstore.core.inspect.StoreInspector;
import java.io.IOException;
import java.util.List;

/**
 * One section of {@code qs info}: a name (the JSON key and text heading) and what it shows. The sections
 * are listed in {@link #ALL}; "schema" lists the types of the store's schema catalog (persistent object
 * API; empty for a store without one).
 */
interface InfoSection {
    String name();

    /** The section's value: a map, list or record (rendered as JSON or as indented text). */
    Object describe(StoreInspector inspector) throws IOException;

    static InfoSection of(String name, Describer d) {
        return new InfoSection() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Object describe(StoreInspector inspector) throws IOException {
                return d.describe(inspector);
            }
        };
    }

    interface Describer {
        Object describe(StoreInspector inspector) throws IOException;
    }

    List<InfoSection> ALL = List.of(
            of("space", StoreInspector::space),
            of("roots", i -> Text.addresses(i, i.roots())),
            of("indexes", StoreInspector::indexes),
            of("schema", i -> SchemaDecoder.read(i).describeTypes()),
            of("log", StoreInspector::logState));
}
