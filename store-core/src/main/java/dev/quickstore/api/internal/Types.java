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

    private static final ConcurrentHashMap<Integer, TypeDescriptor<?>> BY_TAG = new ConcurrentHashMap<>();

    static void register(Class<?> type, TypeDescriptor<?> d) {
        BY_CLASS.putIfAbsent(type, d);
        BY_TAG.putIfAbsent(d.tag(), d);
    }

    /** A registered (loaded) type by its type tag, or null. */
    static TypeDescriptor<?> byTag(int tag) {
        return BY_TAG.get(tag);
    }

    @SuppressWarnings("unchecked") // register() keys each descriptor by its own class
    public static <T> TypeDescriptor<T> of(Class<T> type) {
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
