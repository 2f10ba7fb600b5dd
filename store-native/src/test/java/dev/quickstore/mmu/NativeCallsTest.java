package dev.quickstore.mmu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.invoke.MethodHandle;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every downcall of {@link NativeCalls} links against the library the build made: each holder class is
 * initialised here (its handle is otherwise linked on its first call, which a test may never make), so a binding
 * that names a symbol the library does not export, or declares a holder without its handle, fails here rather
 * than in the first process that calls it.
 */
class NativeCallsTest {
    @Test
    void everyHolderLinksItsDowncall() throws Exception {
        Class<?>[] holders = NativeCalls.class.getDeclaredClasses();
        assertTrue(holders.length > 0, "NativeCalls has no holders");
        List<String> failed = new ArrayList<>();
        for (Class<?> holder : holders) {
            Field h = holder.getDeclaredField("H");
            int m = h.getModifiers();
            assertTrue(Modifier.isStatic(m) && Modifier.isFinal(m), holder + ".H must be static final");
            assertEquals(MethodHandle.class, h.getType(), holder.getName());
            try {
                Class.forName(holder.getName(), true, NativeCalls.class.getClassLoader());
                assertNotNull(h.get(null), holder.getName());
            } catch (ExceptionInInitializerError e) {
                failed.add(holder.getSimpleName() + ": " + e.getCause());
            }
        }
        if (!failed.isEmpty()) {
            fail("downcalls that do not link: " + failed);
        }
    }
}
