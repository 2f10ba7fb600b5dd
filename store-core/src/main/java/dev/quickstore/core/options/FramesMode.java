package dev.quickstore.core.options;

/**
 * How resident pages are held and how the first write to a page is detected.
 *
 * <ul>
 *   <li>{@link #MAPPED} (default): store-native's mapped arena at the volume's preferred base; page
 *       p lives at {@code arenaBase + p * pageSize}; {@code Store.view()} is the application view,
 *       where loads fault pages in and the first store to a page is caught by page protection.</li>
 *   <li>{@link #EXPLICIT}: plain off-heap frames, the store announces each first write; no signals,
 *       no application view. For tests and tools that must not install a SIGSEGV handler.</li>
 *   <li>{@link #SOFTWARE}: software persistence (E / EPVM 3.0; docs/software-mode.md): pages read explicitly into
 *       one off-heap frame region ({@code core.software.SwizzlingFrames}), references stored as OIDs and swizzled
 *       in place after an in-line residency check ({@code Store.swizzler()}), writes announced by a software
 *       barrier; no signals, no application view. The storage manager is the same as in EXPLICIT.</li>
 * </ul>
 * The default can be changed with the system property {@code qs.frames} (MAPPED, EXPLICIT or SOFTWARE), read by {@code StoreProperties}.
 */
public enum FramesMode {
    MAPPED,
    EXPLICIT,
    SOFTWARE;
}
