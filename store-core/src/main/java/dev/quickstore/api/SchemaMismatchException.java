package dev.quickstore.api;

import dev.quickstore.core.error.StoreException;
import java.io.Serial;

/** The store's schema catalog describes a type differently from the code that opened it. */
public final class SchemaMismatchException extends StoreException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String typeName;
    private final String fieldName;

    public SchemaMismatchException(String typeName, String fieldName, String message) {
        super(message);
        this.typeName = typeName;
        this.fieldName = fieldName;
    }

    /** The persistent interface whose definition differs. */
    public String typeName() {
        return typeName;
    }

    /** The first field (in offset order) that differs, or "" when only the size differs. */
    public String fieldName() {
        return fieldName;
    }
}
