package dev.quickstore.core.options;

import dev.quickstore.mmu.Replacement;
import java.util.Arrays;
import java.util.Locale;

/**
 * The one place that reads the store's {@code qs.*} system properties (for experiments through APIs that take
 * no options: the object API's {@code PersistentStore.open}, the OO7 driver). Each bad value is refused with
 * one message naming the property and the valid values.
 *
 * <table>
 *   <caption>System properties</caption>
 *   <tr><th>property</th><th>values</th><th>sets</th></tr>
 *   <tr><td>qs.frames</td><td>MAPPED, EXPLICIT</td><td>{@link StoreOptions#frames()}</td></tr>
 *   <tr><td>qs.writeDetection</td><td>pages, cards</td><td>{@link StoreOptions#writeDetection()}</td></tr>
 *   <tr><td>qs.cardBytes</td><td>a power of two</td><td>{@link StoreOptions#cardBytes()}</td></tr>
 *   <tr><td>qs.poolPages</td><td>frames (at least 8)</td><td>{@link StoreOptions#bufferPoolPages()}</td></tr>
 *   <tr><td>qs.replacement</td><td>{@link Replacement} names</td><td>{@link StoreOptions#replacement()}</td></tr>
 *   <tr><td>qs.relocation</td><td>continual, one-time</td><td>{@link StoreOptions#relocation()}</td></tr>
 *   <tr><td>qs.relocateFraction</td><td>0..1</td><td>{@link StoreOptions#relocateFraction()}</td></tr>
 * </table>
 *
 * The first three are read by every options constructor that is not given them; the last four only by
 * {@link StoreOptions#defaults()}.
 */
public final class StoreProperties {
    private StoreProperties() {}

    static void apply(StoreOptions.Builder b, boolean all) {
        b.frames(frames());
        b.writeDetection(writeDetection());
        b.cardBytes(intProperty("qs.cardBytes", StoreOptions.DEFAULT_CARD_BYTES));
        if (!all) {
            return;
        }
        b.bufferPoolPages(intProperty("qs.poolPages", StoreOptions.DEFAULT_POOL_PAGES));
        String r = System.getProperty("qs.replacement");
        if (r != null) {
            b.replacement(enumValue("qs.replacement", Replacement.class, r));
        }
        String f = System.getProperty("qs.relocateFraction");
        String policy = System.getProperty("qs.relocation");
        if (f != null || policy != null) {
            b.relocation(policy == null ? Relocation.CONTINUAL : enumValue("qs.relocation", Relocation.class, policy));
            b.relocateFraction(f == null ? 0 : doubleProperty("qs.relocateFraction", f));
        }
    }

    /** {@code qs.frames}: MAPPED (default) or EXPLICIT. */
    public static FramesMode frames() {
        String v = System.getProperty("qs.frames", "MAPPED").trim().toUpperCase(Locale.ROOT);
        try {
            return FramesMode.valueOf(v);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("system property qs.frames=" + v + ": expected MAPPED or EXPLICIT", e);
        }
    }

    /** {@code qs.writeDetection}: pages (default) or cards. */
    public static WriteDetection writeDetection() {
        String v = System.getProperty("qs.writeDetection", "pages").trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "pages", "page_protection" -> WriteDetection.PAGE_PROTECTION;
            case "cards", "card_marking" -> WriteDetection.CARD_MARKING;
            default ->
                throw new IllegalArgumentException(
                        "system property qs.writeDetection=" + v + ": expected cards or pages");
        };
    }

    private static int intProperty(String name, int dflt) {
        String v = System.getProperty(name);
        if (v == null) {
            return dflt;
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
