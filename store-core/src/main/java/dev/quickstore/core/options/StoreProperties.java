package dev.quickstore.core.options;

import dev.quickstore.mmu.Replacement;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Function;

/**
 * The one place that reads the store's {@code qs.*} system properties (for experiments through APIs that take
 * no options: the object API's {@code PersistentStore.open}, the OO7 driver). Each bad value is refused with
 * one message naming the property and the valid values.
 *
 * <table>
 *   <caption>System properties</caption>
 *   <tr><th>property</th><th>values</th><th>sets</th></tr>
 *   <tr><td>qs.frames</td><td>MAPPED, EXPLICIT, SOFTWARE</td><td>{@link StoreOptions#frames()}</td></tr>
 *   <tr><td>qs.writeDetection</td><td>pages, cards, objects, remsets, scan</td><td>{@link StoreOptions#writeDetection()}</td></tr>
 *   <tr><td>qs.cardBytes</td><td>a power of two</td><td>{@link StoreOptions#cardBytes()}</td></tr>
 *   <tr><td>qs.poolPages</td><td>frames (at least 8)</td><td>{@link StoreOptions#bufferPoolPages()}</td></tr>
 *   <tr><td>qs.replacement</td><td>{@link Replacement} names</td><td>{@link StoreOptions#replacement()}</td></tr>
 *   <tr><td>qs.relocation</td><td>continual, one-time, texas</td><td>{@link StoreOptions#relocation()}</td></tr>
 *   <tr><td>qs.relocateFraction</td><td>0..1</td><td>{@link StoreOptions#relocateFraction()}</td></tr>
 * </table>
 *
 * The first three are read by every options constructor that is not given them; the last four only by
 * {@link StoreOptions#defaults()}. Tools that take these settings as options of their own (the admin shell's
 * {@code qs oo7}) apply them from a map with {@link StoreOptions.Builder#fromProperties} instead of setting
 * system properties; the same names, values and messages.
 */
public final class StoreProperties {
    private StoreProperties() {}

    static void apply(StoreOptions.Builder b, boolean all) {
        apply(b, all, System::getProperty);
    }

    /**
     * Applies the properties {@code get} has (a property it maps to null keeps the builder's value); with
     * {@code all} false only frames mode, write detection and card size.
     */
    static void apply(StoreOptions.Builder b, boolean all, Function<String, String> get) {
        if (get.apply("qs.frames") != null) {
            b.frames(frames(get.apply("qs.frames")));
        }
        if (get.apply("qs.writeDetection") != null) {
            b.writeDetection(writeDetection(get.apply("qs.writeDetection")));
        }
        Integer cardBytes = intProperty(get, "qs.cardBytes");
        if (cardBytes != null) {
            b.cardBytes(cardBytes);
        }
        if (!all) {
            return;
        }
        Integer poolPages = intProperty(get, "qs.poolPages");
        if (poolPages != null) {
            b.bufferPoolPages(poolPages);
        }
        String r = get.apply("qs.replacement");
        if (r != null) {
            b.replacement(enumValue("qs.replacement", Replacement.class, r));
        }
        String f = get.apply("qs.relocateFraction");
        String policy = get.apply("qs.relocation");
        if (f != null || policy != null) {
            b.relocation(policy == null ? Relocation.CONTINUAL : enumValue("qs.relocation", Relocation.class, policy));
            b.relocateFraction(f == null ? 0 : doubleProperty("qs.relocateFraction", f));
        }
    }

    /** {@code qs.frames}: MAPPED (default), EXPLICIT or SOFTWARE. */
    public static FramesMode frames() {
        return frames(System.getProperty("qs.frames", "MAPPED"));
    }

    private static FramesMode frames(String value) {
        String v = value.trim().toUpperCase(Locale.ROOT);
        try {
            return FramesMode.valueOf(v);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "system property qs.frames=" + v + ": expected MAPPED, EXPLICIT or SOFTWARE", e);
        }
    }

    /** {@code qs.writeDetection}: pages (default), cards, objects, remsets, scan or kernel. */
    public static WriteDetection writeDetection() {
        return writeDetection(System.getProperty("qs.writeDetection", "pages"));
    }

    private static WriteDetection writeDetection(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "pages", "page_protection" -> WriteDetection.PAGE_PROTECTION;
            case "cards", "card_marking" -> WriteDetection.CARD_MARKING;
            case "objects", "object_marking" -> WriteDetection.OBJECT_MARKING;
            case "remsets", "remembered_sets" -> WriteDetection.REMEMBERED_SETS;
            case "scan", "scanning" -> WriteDetection.SCANNING;
            case "kernel", "kernel_tracking" -> WriteDetection.KERNEL_TRACKING;
            default ->
                throw new IllegalArgumentException("system property qs.writeDetection=" + v
                        + ": expected pages, cards, objects, remsets, scan or kernel");
        };
    }

    private static Integer intProperty(Function<String, String> get, String name) {
        String v = get.apply(name);
        if (v == null) {
            return null;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("system property " + name + "=" + v + ": expected an integer", e);
        }
    }

    private static double doubleProperty(String name, String v) {
        try {
            return Double.parseDouble(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("system property " + name + "=" + v + ": expected a number", e);
        }
    }

    private static <E extends Enum<E>> E enumValue(String name, Class<E> type, String v) {
        String norm = v.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        try {
            return Enum.valueOf(type, norm);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "system property " + name + "=" + v + ": expected one of "
                            + Arrays.toString(type.getEnumConstants())
                                    .toLowerCase(Locale.ROOT)
                                    .replace('_', '-'),
                    e);
        }
    }
}
