package dev.quickstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.ArrayList;
import java.util.List;

/**
 * Coverage-guided fuzz target (Jazzer, issue 14) for the backup manifest's decoder ({@link BackupManifest},
 * {@code qs-backup.json}, read by {@code qs restore} and {@code qs backup --verify}): arbitrary bytes either
 * decode, and then decode again to the same entries from their re-serialization, or raise {@link
 * BackupException} naming the manifest. Seeds ({@code BackupManifestFuzzTestInputs/manifest/}): a manifest
 * {@code qs backup} wrote, and the regression seeds of findings.
 */
class BackupManifestFuzzTest {
    @FuzzTest(maxDuration = "10s")
    void manifest(byte[] data) throws Exception {
        List<BackupManifest.Entry> files = new ArrayList<>();
        com.fasterxml.jackson.databind.JsonNode m;
        try {
            m = BackupManifest.decode("qs-backup.json", data, files);
        } catch (BackupException e) {
            assertTrue(e.getMessage().startsWith("qs-backup.json: "), e.getMessage());
            return;
        }
        assertTrue(files.stream().anyMatch(e -> e.path().equals("volume.qs")));
        List<BackupManifest.Entry> again = new ArrayList<>();
        BackupManifest.decode("again", Json.MAPPER.writeValueAsBytes(m), again);
        assertEquals(files, again, "round trip");
    }
}
