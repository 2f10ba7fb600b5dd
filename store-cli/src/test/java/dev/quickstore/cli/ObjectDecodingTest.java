package dev.quickstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quickstore.api.ObjectTransaction;
import dev.quickstore.api.PersistentObject;
import dev.quickstore.api.PersistentStore;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code qs object} and {@code qs info} decode objects made through the persistent object API by name. */
class ObjectDecodingTest {
    @TempDir
    Path tmp;

    @Test
    void objectFieldsAreDecodedThroughTheSchemaCatalog() throws Exception {
        Path db = tmp.resolve("db");
        long first;
        long second;
        try (PersistentStore s = PersistentStore.create(db, Gadget.class);
                ObjectTransaction tx = s.begin()) {
            Gadget a = tx.create(Gadget.class);
            Gadget b = tx.create(Gadget.class);
            a.id(7);
            a.type("type004");
            a.weight(2.5);
            a.broken(true);
            a.name("the first gadget");
            a.next(b);
            b.id(8);
            tx.root("gadgets", a);
            tx.commit();
            first = PersistentObject.addressOf(a);
            second = PersistentObject.addressOf(b);
        }
        QsCommandTest.Run text = QsCommandTest.qs("object", db.toString(), "0x" + Long.toHexString(first));
        assertEquals(0, text.code(), text.err());
        assertTrue(text.out().contains("Gadget"), text.out());
        assertTrue(text.out().lines().anyMatch(l -> l.matches("\\s+id\\s+7")), text.out());
        assertTrue(text.out().lines().anyMatch(l -> l.matches("\\s+type\\s+type004")), text.out());
        assertTrue(text.out().contains("\"the first gadget\""), text.out());
        assertFalse(text.out().contains("note: "), text.out());

        QsCommandTest.Run json = QsCommandTest.qs("object", "--json", db.toString(), Long.toString(first));
        assertEquals(0, json.code(), json.err());
        JsonNode n = Json.MAPPER.readTree(json.out());
        assertTrue(n.get("type").asText().endsWith("Gadget"), json.out());
        JsonNode f = n.get("fields");
        assertEquals(7, f.get("id").asInt());
        assertEquals("type004", f.get("type").asText());
        assertEquals(2.5, f.get("weight").asDouble());
        assertTrue(f.get("broken").asBoolean());
        assertTrue(f.get("next").asText().startsWith(String.format("0x%x (page ", second)), json.out());

        QsCommandTest.Run info = QsCommandTest.qs("info", "--json", db.toString());
        assertEquals(0, info.code(), info.err());
        JsonNode schema = Json.MAPPER.readTree(info.out()).get("schema");
        assertEquals(1, schema.size(), info.out());
        assertTrue(schema.get(0).get("name").asText().endsWith("Gadget"), info.out());
        assertEquals(6, schema.get(0).get("fields").size(), info.out());
    }

    @Test
    void aStoreWithoutACatalogSaysTypedDecodingIsUnavailable() throws Exception {
        Path db = tmp.resolve("raw");
        long ref;
        try (dev.quickstore.core.Store s = dev.quickstore.core.Store.create(db);
                dev.quickstore.core.Transaction tx = s.begin()) {
            ref = tx.allocate(16);
            tx.commit();
        }
        QsCommandTest.Run r = QsCommandTest.qs("object", db.toString(), Long.toString(ref));
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("note: " + ObjectCommand.TYPED_DECODING), r.out());
    }
}
