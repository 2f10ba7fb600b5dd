package dev.quickstore.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.quickstore.api.internal.FieldKind;
import dev.quickstore.api.internal.TypeDescriptor;
import dev.quickstore.api.internal.Types;
import java.lang.reflect.Field;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The processor (compile time) and the run time each define the field kinds and the type-id hash: the
 * processor must not be on a run-time class path, so the definitions cannot be shared. These checks
 * hold the two together: a change on one side only fails here, not as a schema mismatch in the field.
 */
class CompileTimeAgreementTest {
    @Test
    void typeIdsComputedByTheProcessorEqualTheRunTimeHashOfTheSameLayout() {
        for (Class<?> type : new Class<?>[] {Kinds.class, ListNode.class, TreeNode.class}) {
            TypeDescriptor<?> d = Types.of(type);
            assertEquals(TypeDescriptor.typeId(d.name(), d.size(), d.fields()), d.id(), d.name());
            assertEquals(TypeDescriptor.tag(d.id()), d.tag(), d.name());
        }
    }

    @Test
    void fieldKindsHaveTheSameNamesOrderAndSizesOnBothSides() throws Exception {
        Class<?> kind = Class.forName("dev.quickstore.processor.Kind");
        Object[] compileTime = kind.getEnumConstants();
        assertEquals(
                Arrays.stream(FieldKind.values()).map(Enum::name).toList(),
                Arrays.stream(compileTime).map(k -> ((Enum<?>) k).name()).toList());
        Field size = kind.getDeclaredField("size");
        size.setAccessible(true);
        for (int i = 0; i < compileTime.length; i++) {
            assertEquals(FieldKind.values()[i].size(), size.getInt(compileTime[i]), FieldKind.values()[i].name());
        }
    }
}
