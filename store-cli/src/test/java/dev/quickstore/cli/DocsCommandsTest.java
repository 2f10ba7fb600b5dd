package dev.quickstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.cli.QsCommandTest.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code qs} command in a fenced block of README.md and docs/cli.md runs as written: in order, in one
 * empty directory (relative paths resolve there), each exiting 0. A line is {@code qs ...} or {@code $ qs
 * ...}; {@code &&} and {@code ;} separate commands, a {@code | ...} pipe and a {@code # ...} comment are not
 * part of the command, other programs ({@code echo}, {@code jq}) are left out, and the {@code qs:db>} lines
 * after {@code qs shell} are typed into that shell.
 */
class DocsCommandsTest {
    static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final Pattern FENCE = Pattern.compile("```[a-z]*\\n(.*?)```", Pattern.DOTALL);

    @TempDir
    Path cwd;

    /** One command to run: its words, and the shell input typed after it (for {@code qs shell}). */
    record Command(String doc, String line, List<String> words, List<String> shellInput) {}

    static List<Command> commands(String doc, String text) {
        List<Command> out = new ArrayList<>();
        Matcher m = FENCE.matcher(text);
        while (m.find()) {
            Command shell = null;
            for (String raw : m.group(1).lines().toList()) {
                String line = raw.strip();
                if (line.startsWith("qs:") && shell != null) {
                    shell.shellInput().add(line.substring(line.indexOf('>') + 1).strip());
                    continue;
                }
                if (line.startsWith("$ ")) {
                    line = line.substring(2);
                }
                if (!line.startsWith("qs ")) {
                    continue;
                }
                int hash = line.indexOf(" #");
                String code = hash >= 0 ? line.substring(0, hash) : line;
                for (String part : code.split("&&|;")) {
                    String cmd = part.strip();
                    int pipe = cmd.indexOf(" | ");
                    if (pipe >= 0) {
                        cmd = cmd.substring(0, pipe).strip();
                    }
                    if (!cmd.startsWith("qs ")) {
                        continue; // echo, jq: not ours
                    }
                    Command c = new Command(doc, raw.strip(), words(cmd.substring(3)), new ArrayList<>());
                    out.add(c);
                    shell = c.words().getFirst().equals("shell") ? c : null;
                }
            }
        }
        return out;
    }

    /** Shell-like words: quotes group, a leading ./ is relative to the working directory. */
    static List<String> words(String s) {
        List<String> out = new ArrayList<>();
        Matcher w = Pattern.compile("'([^']*)'|\"([^\"]*)\"|(\\S+)").matcher(s);
        while (w.find()) {
            out.add(w.group(1) != null ? w.group(1) : w.group(2) != null ? w.group(2) : w.group(3));
        }
        return out;
    }

    @Test
    void everyFencedQsCommandOfTheDocsRunsAsWritten() throws Exception {
        List<Command> all = new ArrayList<>();
        for (String doc : List.of("README.md", "docs/cli.md")) {
            all.addAll(commands(doc, Files.readString(ROOT.resolve(doc))));
        }
        assertTrue(all.size() >= 10, "commands found: " + all);
        for (Command c : all) {
            List<String> args = c.words().stream()
                    .map(w -> w.startsWith("./") ? cwd.resolve(w.substring(2)).toString() : w)
                    .toList();
            if (args.getFirst().equals("shell")) {
                String out = ShellTest.session(
                        Path.of(args.get(1)), String.join("\n", c.shellInput()) + "\n", cwd.resolve("history"));
                assertFalse(out.contains("qs: error"), c.doc() + ": " + c.line() + " " + c.shellInput() + "\n" + out);
                continue;
            }
            Run r = QsCommandTest.qs(args.toArray(String[]::new));
            assertEquals(0, r.code(), c.doc() + ": '" + c.line() + "' exited " + r.code() + "\n" + r.err());
        }
    }

    @Test
    void theExtractorSplitsChainsAndDropsPipesCommentsAndOtherPrograms() {
        List<Command> c = commands(
                "t",
                "```\n$ qs verify ./db; echo $?   # 0 sound\nqs backup ./a ./b && qs restore ./b ./c\n"
                        + "$ qs info --json ./db | jq .log\n$ qs shell ./db\nqs:db> page 1\nqs:db> exit\n```\n");
        assertEquals(
                List.of(
                        List.of("verify", "./db"),
                        List.of("backup", "./a", "./b"),
                        List.of("restore", "./b", "./c"),
                        List.of("info", "--json", "./db"),
                        List.of("shell", "./db")),
                c.stream().map(Command::words).toList());
        assertEquals(List.of("page 1", "exit"), c.getLast().shellInput());
    }
}
