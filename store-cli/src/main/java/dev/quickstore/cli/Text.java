package dev.quickstore.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quickstore.core.inspect.StoreInspector;
import java.io.PrintWriter;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/** Text rendering shared by the read-only commands: any JSON-able value as indented "key value" lines. */
final class Text {
    private Text() {}

    /** Prints {@code value} (map, record, list) as aligned, indented lines via its JSON tree. */
    static void print(PrintWriter out, Object value) {
        print(out, Json.MAPPER.valueToTree(value), "");
    }

    private static void print(PrintWriter out, JsonNode n, String indent) {
        if (n.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                JsonNode v = e.getValue();
                if (v.isContainerNode() && !isFlat(v)) {
                    out.println(indent + e.getKey() + ":");
                    print(out, v, indent + "  ");
                } else {
                    out.printf("%-24s %s%n", indent + e.getKey(), scalar(v));
                }
            }
        } else if (n.isArray()) {
            int i = 0;
            for (JsonNode v : n) {
                if (v.isContainerNode() && !isFlat(v)) {
                    out.println(indent + "[" + i + "]");
                    print(out, v, indent + "  ");
                } else {
                    out.println(indent + scalar(v));
                }
                i++;
            }
        } else {
            out.println(indent + scalar(n));
        }
    }

    private static boolean isFlat(JsonNode v) {
        if (v.isEmpty()) {
            return true;
        }
        if (!v.isArray()) {
            return false;
        }
        for (JsonNode x : v) {
            if (x.isContainerNode()) {
                return false;
            }
        }
        return true;
    }

    private static String scalar(JsonNode v) {
        if (v.isArray()) {
            StringBuilder sb = new StringBuilder("[");
            for (JsonNode x : v) {
                sb.append(sb.length() > 1 ? ", " : "").append(x.asText());
            }
            return sb.append("]").toString();
        }
        if (v.isObject()) {
            return "{}";
        }
        return v.isNull() ? "-" : v.asText();
    }

    /** Name → address map rendered as name → "0x... (page P offset O)". */
    static Map<String, String> addresses(StoreInspector i, Map<String, Long> refs) {
        Map<String, String> out = new LinkedHashMap<>();
        refs.forEach((k, v) -> out.put(k, describe(i, v)));
        return out;
    }

    static String describe(StoreInspector i, long address) {
        if (address == 0) {
            return "0x0 (null)";
        }
        try {
            return String.format("0x%x (page %d offset %d)", address, i.pageOf(address), i.offsetOf(address));
        } catch (IllegalArgumentException e) {
            return String.format("0x%x (not a store address)", address);
        }
    }

    /** Classic hex dump: offset, 16 bytes, ASCII; runs of all-zero lines collapsed to one "*" line. */
    static void hexDump(PrintWriter out, byte[] b, long base) {
        HexFormat hf = HexFormat.of();
        boolean skipping = false;
        for (int off = 0; off < b.length; off += 16) {
            int n = Math.min(16, b.length - off);
            boolean zero = true;
            for (int j = 0; j < n; j++) {
                zero &= b[off + j] == 0;
            }
            if (zero && off > 0 && off + 16 < b.length) {
                if (!skipping) {
                    out.println("*");
                    skipping = true;
                }
                continue;
            }
            skipping = false;
            StringBuilder sb = new StringBuilder(String.format("%08x  ", base + off));
            StringBuilder ascii = new StringBuilder();
            for (int j = 0; j < 16; j++) {
                if (j < n) {
                    sb.append(hf.toHexDigits(b[off + j])).append(j == 7 ? "  " : " ");
                    char c = (char) (b[off + j] & 0xff);
                    ascii.append(c >= 32 && c < 127 ? c : '.');
                } else {
                    sb.append(j == 7 ? "    " : "   ");
                }
            }
            out.println(sb + " |" + ascii + "|");
        }
    }
}
