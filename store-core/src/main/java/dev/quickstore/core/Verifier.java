package dev.quickstore.core;

import dev.quickstore.core.btree.BPlusTree;
import dev.quickstore.core.buffer.BufferPool;
import dev.quickstore.core.error.StoreFormatException;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.page.SlottedPage;
import dev.quickstore.core.space.ExtentAllocator;
import dev.quickstore.core.verify.VerifyReport;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.HashSet;
import java.util.Set;

/**
 * Checks a store and reports every problem found ({@link VerifyReport}); never changes anything.
 * <ul>
 *   <li>every page in the volume file: checksum, format version and page id ({@link PageHeader#check});</li>
 *   <li>every page of the current state (buffer pool over volume): allocation bit set iff the page type is
 *       not free; reserved pages (header, space maps) have their type;</li>
 *   <li>slotted pages: {@link SlottedPage#check}; large objects: run length, page types, heads;</li>
 *   <li>B+trees (named roots, index catalog, every index): order, separator bounds, equal leaf depth,
 *       leaf links, entry counts; every B+tree page is reachable from exactly one tree.</li>
 * </ul>
 */
public final class Verifier {
    private final Store store;

    public Verifier(Store store) {
        this.store = store;
    }

    VerifyReport run() throws IOException {
        VerifyReport report = new VerifyReport();
        BufferPool pool = store.pool;
        ExtentAllocator ext = store.extents;
        long count = ext.pageCount();
        int ps = store.pageSize;
        long filePages = store.volume.fileSize() / ps;
        MemorySegment raw = MemorySegment.ofArray(new byte[ps]);
        for (long p = 0; p < filePages; p++) {
            store.volume.readRaw(p, raw);
            try {
                PageHeader.check(store.volume.name(), p, raw);
            } catch (StoreFormatException e) {
                report.problem(p, e.getMessage());
            }
        }
        Set<Long> treePages = new HashSet<>();
        checkTree(report, treePages, store.roots.roots(false));
        BPlusTree cat = store.roots.indexCatalog(false);
        checkTree(report, treePages, cat);
        if (cat != null) {
            for (long meta : store.roots.indexes().values()) {
                try {
                    checkTree(report, treePages, BPlusTree.open(pool, ext, meta));
                } catch (StoreFormatException e) {
                    report.problem(meta, e.getMessage());
                }
            }
        }
        Set<Long> largePages = new HashSet<>();
        for (long p = 0; p < count; p++) {
            report.pageChecked();
            MemorySegment page;
            try {
                page = pool.fix(p);
            } catch (StoreFormatException e) {
                report.problem(p, e.getMessage());
                continue;
            }
            int type = PageHeader.type(page);
            boolean zero = PageHeader.isAllZero(page);
            if (!zero && PageHeader.pageId(page) != p && !(type == PageHeader.FREE && PageHeader.pageId(page) == 0)) {
                report.problem(
                        p,
                        "page id field " + PageHeader.pageId(page) + ", expected " + p + " (page type "
                                + PageHeader.typeName(type) + ", aux " + PageHeader.aux(page) + ")");
            }
            boolean allocated = ext.isAllocated(p);
            boolean reserved = p == 0 || p == 1 || p % ext.groupPages() == 0;
            if (reserved) {
                int want = p == 0 ? PageHeader.VOLUME_HEADER : PageHeader.SPACE_MAP;
                if (type != want || !allocated) {
                    report.problem(
                            p,
                            "reserved page should be " + PageHeader.typeName(want) + " and allocated, is "
                                    + PageHeader.typeName(type) + (allocated ? "" : " and free"));
                }
            } else if (allocated != (type != PageHeader.FREE)) {
                report.problem(
                        p,
                        "allocation bit " + (allocated ? "set" : "clear") + " but page type "
                                + PageHeader.typeName(type));
            }
            switch (type) {
                case PageHeader.SLOTTED -> {
                    SlottedPage.check(page, p, report);
                    report.objects(SlottedPage.liveCount(page));
                }
                case PageHeader.LARGE -> {
                    if (PageHeader.aux(page) == p) {
                        int n = store.largeObjects.check(p, page, report);
                        for (long q = p; q < p + n; q++) {
                            largePages.add(q);
                        }
                        report.objects(1);
                    } else if (!largePages.contains(p)) {
                        report.problem(
                                p, "large-object page not covered by the run of its head page " + PageHeader.aux(page));
                    }
                }
                case PageHeader.BTREE_META, PageHeader.BTREE_INNER, PageHeader.BTREE_LEAF -> {
                    if (!treePages.contains(p)) {
                        report.problem(p, PageHeader.typeName(type) + " page not reachable from any B+tree");
                    }
                }
                default -> {
                    // header, space map and free pages: covered above
                }
            }
            pool.unpin(p);
        }
        return report;
    }

    private static void checkTree(VerifyReport report, Set<Long> treePages, BPlusTree t) throws IOException {
        if (t != null) {
            t.check(report, treePages);
        }
    }
}
