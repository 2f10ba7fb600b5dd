package dev.quickstore.cli;

import dev.quickstore.core.inspect.ObjectView;
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

/** {@code qs object DIR REF}: one object: where it lives, its size, bytes and pointer fields. */
@Command(
        name = "object",
        mixinStandardHelpOptions = true,
        header = "Show one object: its bytes and its pointer fields.",
        description = {
            "Show one object: page, slot, size, its bytes in hex, and its pointer fields (from the page's",
            "pointer map) as addresses with the page they point into. Read-only.",
            "REF is an address (0x5a0000020150 or decimal) or PAGE:SLOT of a slotted page.",
            "When the store has a schema catalog (objects made through the persistent object API), the",
            "object's type is found from its type tag and every field is decoded by name."
        },
        footer = {
            "",
            "Examples:",
            "  qs object ./db 0x5a0000020150",
            "  qs object ./db 16:0",
            "  qs object --json ./db 16:0 | jq '.pointers[].targetPage'"
        })
final class ObjectCommand implements Callable<Integer> {
    static final String TYPED_DECODING = "typed field decoding needs the schema catalog (not in this store yet)";
    static final String UNKNOWN_TAG = "no type in the schema catalog has this object's type tag";

    @Mixin
    StoreDir store;

    @Parameters(index = "1", paramLabel = "REF", description = "object address or PAGE:SLOT")
    String ref;

    @Option(
            names = "--bytes",
            paramLabel = "N",
            defaultValue = "256",
            description = "show at most N bytes of the contents (default: ${DEFAULT-VALUE})")
    int maxBytes;

    @Mixin
    JsonFlag json;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (maxBytes < 0) {
            throw new IllegalArgumentException("--bytes must not be negative");
        }
        try (StoreInspector in = StoreInspector.open(store.path())) {
            ObjectView o = in.object(Refs.parse(in, ref));
            byte[] bytes = in.objectBytes(o, maxBytes);
            SchemaDecoder schema = SchemaDecoder.read(in);
            String typeName = null;
            Map<String, Object> fields = null;
            String note = TYPED_DECODING;
            if (schema.present() && o.kind().equals("small")) {
                byte[] whole = in.objectBytes(o, (int) o.length());
                var type = schema.typeOf(whole);
                if (type.isPresent()) {
                    typeName = type.get().name();
                    fields = schema.decode(type.get(), whole);
                    note = null;
                } else {
                    note = UNKNOWN_TAG;
                }
            }
            if (json.on()) {
                Map<String, Object> m = Json.MAPPER.convertValue(o, Json.MAP);
                m.put("hex", HexFormat.of().formatHex(bytes));
                m.put("truncated", bytes.length < o.length());
                if (fields != null) {
                    m.put("type", typeName);
                    m.put("fields", fields);
                } else {
                    m.put("typedFields", note);
                }
                out.println(Json.object(m));
                return ExitCodes.OK;
            }
            Map<String, Object> head = new LinkedHashMap<>();
            head.put("address", o.address());
            head.put("page", o.pageId());
            head.put("offset", o.offset());
            head.put("kind", o.kind());
            if (o.slot() >= 0) {
                head.put("slot", o.slot());
            } else {
                head.put("pages", o.pages());
            }
            head.put("length", o.length());
            if (typeName != null) {
                head.put("type", typeName);
            }
            Text.print(out, head);
            if (fields != null) {
                out.println("fields:");
                fields.forEach((k, v) -> out.printf("  %-20s %s%n", k, v));
            }
            out.println("pointer fields:" + (o.pointers().isEmpty() ? " none" : ""));
            for (ObjectView.PointerField f : o.pointers()) {
                out.printf(
                        "  +%-5d %-16s %s%n",
                        f.fieldOffset(),
                        f.value(),
                        f.targetPage() < 0
                                ? f.target()
                                : "page " + f.targetPage() + " offset " + f.targetOffset() + ": " + f.target());
            }
            out.println("bytes" + (bytes.length < o.length() ? " (first " + bytes.length + ")" : "") + ":");
            Text.hexDump(out, bytes, 0);
            if (note != null) {
                out.println("note: " + note);
            }
        }
        return ExitCodes.OK;
    }
}
