package dev.quickstore.oo7.schema;

import dev.quickstore.api.Persistent;
import java.util.List;

/**
 * An OO7 complex assembly: an inner node of the assembly hierarchy with {@code NumAssmPerAssm} (3)
 * sub-assemblies, which are base assemblies on the level above the leaves and complex assemblies otherwise.
 */
@Persistent
public interface ComplexAssembly extends Assembly {
    List<Assembly> subAssemblies();
}
