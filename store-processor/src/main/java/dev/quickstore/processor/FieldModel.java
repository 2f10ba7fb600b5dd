package dev.quickstore.processor;

/**
 * One persistent field.
 *
 * @param length bytes in the object ({@code n} for {@code @Chars(n)})
 * @param javaType the getter's declared type, as source text
 * @param setterParam the interface setter's parameter type, or null when the interface declares none
 * @param refType qualified name of the referenced persistent interface (REF, LIST, SET, BAG), else ""
 * @param refImpl qualified name of its generated class (REF, LIST, SET, BAG), else ""
 */
record FieldModel(
        String name,
        Kind kind,
        int length,
        String javaType,
        String setterParam,
        String refType,
        String refImpl,
        int offset) {
    FieldModel(
            String name, Kind kind, int length, String javaType, String setterParam, String refType, String refImpl) {
        this(name, kind, length, javaType, setterParam, refType, refImpl, -1);
    }

    FieldModel at(int off) {
        return new FieldModel(name, kind, length, javaType, setterParam, refType, refImpl, off);
    }
}
