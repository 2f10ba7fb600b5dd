package dev.quickstore.core.inspect;

import dev.quickstore.core.btree.BPlusTree;
import dev.quickstore.core.buffer.Addresses;
import dev.quickstore.core.index.KeyType;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.page.SlottedPage;
import dev.quickstore.core.space.LargeObjects;
import dev.quickstore.core.volume.VolumeHeader;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The type-specific fields of a page as the inspector shows them, decoded through the layout constants
 * of each format's owner (one definition per format): {@link VolumeHeader}, the space map, {@link
 * SlottedPage}, {@link LargeObjects} and {@link BPlusTree}. Works on a possibly damaged page: it never
 * throws for bad contents, it shows them.
 */
final class PageFields {
    private final VolumeHeader header;
    private final Addresses addresses;
    private final int pageSize;
    private final long groupPages;

    PageFields(VolumeHeader header, Addresses addresses) {
        this.header = header;
        this.addresses = addresses;
        this.pageSize = header.pageSize();
        this.groupPages = ((long) (pageSize - PageHeader.SIZE) * 8 / header.extentPages()) * header.extentPages();
    }

    /** Pages covered by one space-map page. */
    long groupPages() {
        return groupPages;
    }

    /** Puts the fields of page {@code pageId} into {@code fields}; returns its slots (slotted pages). */
    List<SlotView> decode(long pageId, MemorySegment p, Map<String, Object> fields) {
        int type = PageHeader.type(p);
        List<SlotView> slots = List.of();
        switch (type) {
            case PageHeader.VOLUME_HEADER -> volumeFields(p, fields);
            case PageHeader.SPACE_MAP -> spaceMapFields(pageId, p, fields);
            case PageHeader.SLOTTED -> slots = slottedFields(pageId, p, fields);
            case PageHeader.LARGE -> largeFields(pageId, p, fields);
            case PageHeader.BTREE_META -> {
                int kt = p.get(ValueLayout.JAVA_BYTE, BPlusTree.META_KEY_TYPE);
                fields.put("keyType", kt >= 0 && kt < KeyType.values().length ? KeyType.values()[kt].name() : "?" + kt);
                fields.put("unique", p.get(ValueLayout.JAVA_BYTE, BPlusTree.META_UNIQUE) != 0);
                fields.put("keyLength", Short.toUnsignedInt(p.get(PageHeader.SHORT, BPlusTree.META_KEY_LENGTH)));
                fields.put("rootPage", p.get(PageHeader.LONG, BPlusTree.META_ROOT));
                fields.put("height", p.get(PageHeader.INT, BPlusTree.META_HEIGHT));
                fields.put("entries", p.get(PageHeader.LONG, BPlusTree.META_ENTRIES));
            }
            case PageHeader.BTREE_INNER -> {
                fields.put("count", Short.toUnsignedInt(p.get(PageHeader.SHORT, BPlusTree.COUNT)));
                fields.put("firstChild", p.get(PageHeader.LONG, BPlusTree.LINK));
            }
            case PageHeader.BTREE_LEAF -> {
                fields.put("count", Short.toUnsignedInt(p.get(PageHeader.SHORT, BPlusTree.COUNT)));
                fields.put("previousLeaf", p.get(PageHeader.LONG, BPlusTree.LINK));
                fields.put("nextLeaf", PageHeader.aux(p));
            }
            default -> {
                // free or unknown: the header says it all
            }
        }
        return slots;
    }

    private static void volumeFields(MemorySegment p, Map<String, Object> f) {
        byte[] magic = new byte[8];
        MemorySegment.copy(p, ValueLayout.JAVA_BYTE, VolumeHeader.MAGIC_OFFSET, magic, 0, 8);
        f.put("magic", new String(magic, java.nio.charset.StandardCharsets.ISO_8859_1));
        f.put("formatVersion", p.get(PageHeader.INT, VolumeHeader.FORMAT_VERSION_OFFSET));
        f.put("pageSize", p.get(PageHeader.INT, VolumeHeader.PAGE_SIZE_OFFSET));
        f.put(
                "creationId",
                new java.util.UUID(
                                p.get(PageHeader.LONG, VolumeHeader.CREATION_ID_OFFSET),
                                p.get(PageHeader.LONG, VolumeHeader.CREATION_ID_OFFSET + 8))
                        .toString());
        f.put("preferredArenaBase", StoreInspector.hex(p.get(PageHeader.LONG, VolumeHeader.ARENA_BASE_OFFSET)));
        f.put("pageCount", p.get(PageHeader.LONG, VolumeHeader.PAGE_COUNT_OFFSET));
        f.put("createdMillis", p.get(PageHeader.LONG, VolumeHeader.CREATED_OFFSET));
        f.put("extentPages", p.get(PageHeader.INT, VolumeHeader.EXTENT_PAGES_OFFSET));
        f.put("rootsMetaPage", p.get(PageHeader.LONG, VolumeHeader.ROOTS_META_OFFSET));
        f.put("indexesMetaPage", p.get(PageHeader.LONG, VolumeHeader.INDEXES_META_OFFSET));
    }

    private void spaceMapFields(long pageId, MemorySegment p, Map<String, Object> f) {
        long group = pageId == 1 ? 0 : pageId / groupPages;
        long first = group * groupPages;
        long last = Math.min(first + groupPages, header.pageCount());
        long allocated = 0;
        for (long q = first; q < last; q++) {
            allocated += bit(p, (int) (q - first)) ? 1 : 0;
        }
        f.put("group", group);
        f.put("firstPage", first);
        f.put("pagesCovered", Math.max(0, last - first));
        f.put("allocated", allocated);
        f.put("free", Math.max(0, last - first) - allocated);
    }

    static boolean bit(MemorySegment map, int i) {
        return (map.get(ValueLayout.JAVA_BYTE, PageHeader.SIZE + i / 8) & (1 << (i % 8))) != 0;
    }

    private List<SlotView> slottedFields(long pageId, MemorySegment p, Map<String, Object> f) {
        int n = SlottedPage.slotCount(p);
        f.put("slotCount", n);
        f.put("liveCount", SlottedPage.liveCount(p));
        f.put("dataStart", SlottedPage.dataStart(pageSize));
        f.put("largestFit", SlottedPage.slotCount(p) * SlottedPage.SLOT_SIZE < pageSize ? safeLargestFit(p) : 0);
        List<SlotView> slots = new ArrayList<>(n);
        int words = pageSize / 8;
        for (int i = 0; i < n && (i + 1) * SlottedPage.SLOT_SIZE <= pageSize; i++) {
            int off = SlottedPage.slotOffset(p, i);
            int len = SlottedPage.slotLength(p, i);
            List<Integer> ptrs = new ArrayList<>();
            if (off != 0) {
                for (int w = off / 8; w * 8 < off + len && w < words; w++) {
                    if (SlottedPage.isPointer(p, w)) {
                        ptrs.add(w * 8 - off);
                    }
                }
            }
            slots.add(new SlotView(
                    i, off, len, off == 0 ? null : StoreInspector.hex(addresses.address(pageId, off)), ptrs));
        }
        return slots;
    }

    static int safeLargestFit(MemorySegment p) {
        try {
            return SlottedPage.largestFit(p);
        } catch (RuntimeException e) {
            return 0; // a damaged slot array: the slots themselves are listed
        }
    }

    private static void largeFields(long pageId, MemorySegment p, Map<String, Object> f) {
        long head = PageHeader.aux(p);
        f.put("headPage", head);
        if (head == pageId) {
            f.put("length", p.get(PageHeader.LONG, LargeObjects.HEAD_LENGTH));
            f.put("runPages", p.get(PageHeader.INT, LargeObjects.HEAD_RUN_PAGES));
        }
    }
}
