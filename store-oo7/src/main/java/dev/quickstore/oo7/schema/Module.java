package dev.quickstore.oo7.schema;

import dev.quickstore.api.Persistent;
import java.util.List;

/** An OO7 module: one assembly hierarchy with its manual. */
@Persistent
public interface Module extends DesignObj {
    Manual man();

    void man(Manual manual);

    /** All base assemblies of this module, in preorder of the hierarchy. */
    List<BaseAssembly> assemblies();

    /** The root of the assembly hierarchy. */
    ComplexAssembly designRoot();

    void designRoot(ComplexAssembly root);
}
