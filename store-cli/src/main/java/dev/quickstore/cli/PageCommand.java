package dev.quickstore.cli;

import dev.quickstore.core.inspect.PageView;
import dev.quickstore.core.inspect.SlotView;
import dev.quickstore.core.inspect.StoreInspector;
import java.io.PrintWriter;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code qs page DIR ID}: one page decoded: header, type-specific fields, slots; optionally hex. */
@Command(
        name = "page",
        mixinStandardHelpOptions = true,
        header = "Decode one page as stored: header, fields and slots.",
        description = {
            "Decode one page as stored: header (type, LSN, checksum), type-specific fields, and the slot",
            "array of a slotted page with each object's address and pointer fields. Read-only.",
            "A damaged page is still decoded; the command then exits 3."
        },
        footer = {
            "",
            "Examples:",
            "  qs page ./db 0            the volume header page",
            "  qs page ./db 16 --hex     a slotted page with a hex dump (zero lines collapsed to *)",
            "  qs page --json ./db 16 | jq '.slots[].address'"
        })
final class PageCommand implements Callable<Integer> {
    @Mixin
    StoreDir store;

    @Parameters(index = "1", paramLabel = "ID", description = "page id (0 = volume header)")
    long pageId;

    @Option(names = "--hex", description = "also dump the page bytes in hex")
    boolean hex;

    @Option(names = "--json", description = "print JSON instead of text (with --hex: a \"hex\" field)")
    boolean json;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PageView p;
        byte[] raw;
        int pageSize;
        try (StoreInspector in = StoreInspector.open(store.path())) {
            p = in.page(pageId);
            raw = hex ? in.rawPage(pageId) : null;
            pageSize = in.header().pageSize();
        }
        if (json) {
            Map<String, Object> m = Json.MAPPER.convertValue(p, Json.MAP);
            if (raw != null) {
                m.put("hex", HexFormat.of().formatHex(raw));
            }
            out.println(Json.object(m));
        } else {
            Map<String, Object> head = new LinkedHashMap<>();
            head.put("page", p.pageId());
            head.put("type", p.type() + " (" + p.typeCode() + ")");
            head.put("state", p.state());
            head.put("version", p.version());
            head.put("pageIdField", p.headerPageId());
            head.put("lsn", p.lsn());
            head.put("aux", p.aux());
            head.put("checksum", p.storedChecksum() + " stored, " + p.computedChecksum() + " computed");
            if (p.problem() != null) {
                head.put("problem", p.problem());
            }
            head.putAll(p.fields());
            Text.print(out, head);
            if (!p.slots().isEmpty()) {
                out.printf("%-6s %-7s %-7s %-18s %s%n", "slot", "offset", "length", "address", "pointer fields");
                for (SlotView s : p.slots()) {
                    if (s.free()) {
                        out.printf("%-6d %-7s%n", s.slot(), "free");
                    } else {
                        out.printf(
                                "%-6d %-7d %-7d %-18s %s%n",
                                s.slot(),
                                s.offset(),
                                s.length(),
                                s.address(),
                                s.pointerOffsets().isEmpty() ? "-" : s.pointerOffsets());
                    }
                }
            }
            if (raw != null) {
                Text.hexDump(out, raw, pageId * pageSize);
            }
        }
        if (p.state().equals("damaged")) {
            spec.commandLine().getErr().println("qs: error: " + p.problem());
            return ExitCodes.DAMAGED;
        }
        return ExitCodes.OK;
    }
}
