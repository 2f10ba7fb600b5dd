package dev.quickstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.volume.VolumeFile;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jline.reader.Candidate;
import org.jline.reader.impl.DefaultParser;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.shell.jline3.PicocliJLineCompleter;

/** The interactive shell driven through JLine's dumb terminal over piped streams. */
class ShellTest {
    @TempDir
    Path tmp;

    String session(Path dir, String input) throws Exception {
        return session(dir, input, tmp.resolve("history"));
    }

    /** Types {@code input} into a shell bound to {@code dir} (a JLine dumb terminal) and returns what it printed. */
    static String session(Path dir, String input, Path history) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (DumbTerminal t = new DumbTerminal(
                "test",
                "dumb",
                new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
                out,
                StandardCharsets.UTF_8)) {
            assertEquals(0, ShellCommand.run(t, dir, history));
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void commandsRunOnTheBoundStoreAndErrorsDoNotEndTheShell() throws Exception {
        Path db = tmp.resolve("db");
        VolumeFile.create(db, 8192);
        String out = session(db, "info\npage 99\nobject nonsense\nbogus\npage 0\nexit\ninfo\n");
        assertTrue(out.contains("QuickStore/J shell on " + db), out);
        assertTrue(out.lines().anyMatch(l -> l.matches(".*pageSize\\s+8192")), out);
        assertTrue(out.contains("qs: error: page 99 does not exist"), out);
        assertTrue(out.contains("qs: error: malformed object reference 'nonsense'"), out);
        assertTrue(out.contains("Unmatched argument") || out.contains("Unknown"), out);
        int after = out.indexOf("qs: error: malformed object reference");
        assertTrue(out.indexOf("QSVOLUME", after) > after, "page 0 ran after the errors: " + out);
        assertEquals(1, out.split("formatVersion", -1).length - 2, "exit ended the session: " + out);
        assertTrue(Files.readString(tmp.resolve("history")).contains("page 0"), "history saved");
    }

    @Test
    void endOfInputLeavesAndHelpWorks() throws Exception {
        String out = session(null, "help\ncreate " + tmp.resolve("x") + "\n");
        assertTrue(out.contains("Commands:") && out.contains("verify"), out);
        assertTrue(out.contains("created store"), out);
        assertTrue(Files.exists(tmp.resolve("x").resolve("volume.qs")));
    }

    @Test
    void completionOffersCommandsAndOptions() {
        PicocliJLineCompleter c = new PicocliJLineCompleter(Qs.commandLine(
                        new java.io.PrintWriter(java.io.Writer.nullWriter()),
                        new java.io.PrintWriter(java.io.Writer.nullWriter()))
                .getCommandSpec());
        List<Candidate> cands = new ArrayList<>();
        c.complete(null, new DefaultParser().parse("pa", 2), cands);
        assertTrue(cands.stream().anyMatch(x -> x.value().equals("page")), cands.toString());
        cands.clear();
        c.complete(null, new DefaultParser().parse("page --h", 8), cands);
        assertTrue(cands.stream().anyMatch(x -> x.value().equals("--hex")), cands.toString());
    }
}
