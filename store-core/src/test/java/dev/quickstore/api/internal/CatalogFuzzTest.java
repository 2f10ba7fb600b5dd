package dev.quickstore.api.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.quickstore.core.error.StoreFormatException;
import java.util.List;

/**
 * Coverage-guided fuzz target (Jazzer, issue 14) for the schema catalog's decoder: the bytes of the catalog
 * blob (its {@link Blobs} header, then the encoding of {@link Catalog}) as {@code qs object} and the object
 * API read them. Allowed outcomes: a decode that survives a round trip through the encoder, or {@link
 * StoreFormatException} naming the catalog and the offset. Seeds ({@code CatalogFuzzTestInputs/}) are real
 * catalog blobs written by {@code FuzzSeedsTest}.
 */
public class CatalogFuzzTest {
    /** Public: {@code StoreFilesFuzzTest.everyDecoder} runs this target too. */
    public CatalogFuzzTest() {}

    @FuzzTest(maxDuration = "10s")
    public void schemaCatalog(byte[] blob) {
        List<Catalog.TypeRecord> types;
        try {
            types = Catalog.fromBlobBytes(blob, 0x5a0000001000L);
        } catch (StoreFormatException e) {
            assertTrue(e.getMessage().contains("schema catalog at 0x5a0000001000"), e.getMessage());
            return;
        }
        assertEquals(types, Catalog.decode(Catalog.encode(types), 0), "round trip");
    }
}
