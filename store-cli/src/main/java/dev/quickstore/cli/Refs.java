package dev.quickstore.cli;

import dev.quickstore.core.inspect.PageView;
import dev.quickstore.core.inspect.SlotView;
import dev.quickstore.core.inspect.StoreInspector;
import java.io.IOException;
import java.util.Locale;

/** Parsing of object references typed by the user: {@code 0x5a0000004038}, a decimal address, or {@code PAGE:SLOT}. */
final class Refs {
    private Refs() {}

    static long parse(StoreInspector inspector, String text) throws IOException {
        String s = text.trim().toLowerCase(Locale.ROOT).replace("_", "");
        try {
            int colon = s.indexOf(':');
            if (colon > 0) {
                long page = Long.parseLong(s.substring(0, colon));
                int slot = Integer.parseInt(s.substring(colon + 1));
                PageView p = inspector.page(page);
                if (!p.type().equals("slotted")) {
                    throw new IllegalArgumentException(
                            "object " + text + ": page " + page + " is " + p.type() + ", not a slotted page");
                }
                if (slot < 0 || slot >= p.slots().size() || p.slots().get(slot).free()) {
                    throw new IllegalArgumentException("object " + text + ": page " + page + " has no live slot " + slot
                            + " (" + p.slots().stream().filter(x -> !x.free()).count() + " live of "
                            + p.slots().size() + " slots)");
                }
                SlotView sv = p.slots().get(slot);
                return inspector.address(page, sv.offset());
            }
            return s.startsWith("0x") ? Long.parseUnsignedLong(s.substring(2), 16) : Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("malformed object reference '" + text
                    + "': expected an address (0x5a0000004038 or decimal) or PAGE:SLOT (e.g. 16:0)");
        }
    }
}
