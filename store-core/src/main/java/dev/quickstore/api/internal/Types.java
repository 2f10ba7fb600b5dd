package dev.quickstore.api.internal;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Registry of generated persistent types. {@link #of} loads {@code <Name>$Impl} by name once (the one
 * {@code Class.forName} of the API: it runs the class's static initialiser, which registers its descriptor);
 * no other reflection is used.
 */
public final class Types {
    private static final ConcurrentHashMap<Class<?>, TypeDescriptor<?>> BY_CLASS = new ConcurrentHashMap<>();

    private Types() {}

    /**
     * Loaded types by type tag: an open-addressing table (linear probing on the tag's low bits), replaced
     * as a whole when a type registers (copy on write), so a lookup is a plain array walk without locks,
     * boxing or hashing beyond a mask. Polymorphic references go through it for every subtype proxy.
     */
    private static volatile TypeDescriptor<?>[] byTag = new TypeDescriptor<?>[64];

    static synchronized void register(Class<?> type, TypeDescriptor<?> d) {
        BY_CLASS.putIfAbsent(type, d);
        if (byTag(d.tag()) != null) {
            return;
        }
        TypeDescriptor<?>[] old = byTag;
        int count = 1;
        for (TypeDescriptor<?> e : old) {
            count += e == null ? 0 : 1;
        }
        int cap = old.length;
        while (count * 2 > cap) {
            cap *= 2;
        }
        TypeDescriptor<?>[] table = new TypeDescriptor<?>[cap];
        for (TypeDescriptor<?> e : old) {
            if (e != null) {
                put(table, e);
            }
        }
        put(table, d);
        byTag = table;
    }

    private static void put(TypeDescriptor<?>[] table, TypeDescriptor<?> d) {
        int mask = table.length - 1;
        int i = d.tag() & mask;
        while (table[i] != null) {
            i = (i + 1) & mask;
        }
        table[i] = d;
    }

    /** A registered (loaded) type by its type tag, or null. */
    static TypeDescriptor<?> byTag(int tag) {
        TypeDescriptor<?>[] table = byTag;
        int mask = table.length - 1;
        for (int i = tag & mask; ; i = (i + 1) & mask) {
            TypeDescriptor<?> d = table[i];
            if (d == null || d.tag() == tag) {
                return d;
            }
        }
    }

    /**
     * The type of tag {@code tag}, loading its generated class if no object of it was seen yet in this
     * process: the catalog names the interface, {@code loader} (the declared type's) loads {@code $Impl}.
     * Null if the tag is not catalogued or the class cannot be loaded.
     */
    static TypeDescriptor<?> byTag(int tag, Catalog catalog, ClassLoader loader) {
        TypeDescriptor<?> d = byTag(tag);
        if (d != null || catalog == null) {
            return d;
        }
        String name = catalog.typeNameOfTag(tag);
        if (name == null) {
            return null;
        }
        // the catalog holds canonical names (p.Outer.Node); the binary name of a nested type uses '$'
        String binary = name;
        while (true) {
            try {
                Class.forName(binary + "$Impl", true, loader);
                return byTag(tag);
            } catch (ClassNotFoundException e) {
                int dot = binary.lastIndexOf('.');
                if (dot < 0) {
                    return null;
                }
                binary = binary.substring(0, dot) + '$' + binary.substring(dot + 1);
            }
        }
    }

    /**
     * {@link #lookup} memoised per class: a {@link ClassValue} read is a field load and a compare, where the map's
     * {@code get} was 7% of the creation loop's CPU (issue #20). A failed lookup throws and is not memoised.
     */
    private static final ClassValue<TypeDescriptor<?>> MEMO = new ClassValue<>() {
        @Override
        protected TypeDescriptor<?> computeValue(Class<?> type) {
            return lookup(type);
        }
    };

    @SuppressWarnings("unchecked") // register() keys each descriptor by its own class
    public static <T> TypeDescriptor<T> of(Class<T> type) {
        return (TypeDescriptor<T>) MEMO.get(type);
    }

    @SuppressWarnings("unchecked") // register() keys each descriptor by its own class
    private static <T> TypeDescriptor<T> lookup(Class<T> type) {
        TypeDescriptor<?> d = BY_CLASS.get(type);
        if (d == null) {
            if (!type.isInterface()) {
                throw new IllegalArgumentException(
                        type.getName() + " is not a persistent type: declare an interface annotated @Persistent");
            }
            String impl = type.getName() + "$Impl";
            try {
                Class.forName(impl, true, type.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalArgumentException(
                        "no generated implementation " + impl + " for " + type.getName()
                                + ": annotate the interface @Persistent and list store-processor in"
                                + " maven-compiler-plugin annotationProcessorPaths",
                        e);
            }
            d = BY_CLASS.get(type);
            if (d == null) {
                throw new IllegalArgumentException(impl + " did not register a type descriptor for " + type.getName());
            }
        }
        return (TypeDescriptor<T>) d;
    }
}
