package dev.quickstore.oo7.schema;

import dev.quickstore.api.Persistent;

/** An OO7 assembly: a node of a module's assembly hierarchy. */
@Persistent
public interface Assembly extends DesignObj {
    /** The parent assembly, or {@code null} for the module's design root. */
    ComplexAssembly superAssembly();

    Module module();
}
