package dev.quickstore.lab.swizzle;

/** Moss's five schemes (Moss 1992, section 3.1): no swizzling; eager or lazy, in-place or copy swizzling. */
public enum Strategy {
    NS("no swizzling: an oid lookup at every visit"),
    EIS("eager in-place swizzling"),
    LIS("lazy in-place swizzling (node marking, residency check at every visit)"),
    ECS("eager copy swizzling"),
    LCS("lazy copy swizzling (fault blocks, residency check at every visit)");

    private final String description;

    Strategy(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }

    public boolean lazy() {
        return this == LIS || this == LCS;
    }

    /** A session of this scheme over {@code buffers}. */
    public SwizzleSession open(PageBuffers buffers, Workload work, Tally tally) {
        return switch (this) {
            case NS -> new NoSwizzling(buffers, work, tally);
            case EIS -> new InPlaceSwizzling(buffers, work, tally, false);
            case LIS -> new InPlaceSwizzling(buffers, work, tally, true);
            case ECS -> new CopySwizzling(buffers, work, tally, false);
            case LCS -> new CopySwizzling(buffers, work, tally, true);
        };
    }
}
