package dev.quickstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.cli.QsCommandTest.Run;
import dev.quickstore.testkit.ChildJvm;
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
    record Command(String doc, String line, List<String> words, List<String> shellInput, boolean background) {}

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
                String code = (hash >= 0 ? line.substring(0, hash) : line).strip();
                boolean background = code.endsWith(" &");
                if (background) {
                    code = code.substring(0, code.length() - 2);
                }
                for (String part : code.split("&&|;")) {
                    String cmd = part.strip();
                    int pipe = cmd.indexOf(" | ");
                    if (pipe >= 0) {
                        cmd = cmd.substring(0, pipe).strip();
                    }
                    if (!cmd.startsWith("qs ")) {
                        continue; // echo, jq: not ours
                    }
                    Command c = new Command(doc, raw.strip(), words(cmd.substring(3)), new ArrayList<>(), background);
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
        java.util.Map<String, String> servers = new java.util.HashMap<>(); // documented address -> actual
        List<ChildJvm.Running> background = new ArrayList<>();
        try {
            run(all, servers, background);
        } finally {
            for (ChildJvm.Running b : background) {
                b.terminate();
                assertFalse(b.stderr().contains("error"), b.describe());
            }
        }
    }

    /**
     * Runs the commands; one ending in {@code &} ({@code qs serve}) is started as a real process listening on
     * an ephemeral port instead of the documented one, which later commands are pointed at instead.
     */
    private void run(List<Command> all, java.util.Map<String, String> servers, List<ChildJvm.Running> background)
            throws Exception {
        for (Command c : all) {
            List<String> args = c.words().stream()
                    .map(w -> w.startsWith("./") ? cwd.resolve(w.substring(2)).toString() : w)
                    .map(w -> servers.getOrDefault(w, w))
                    .toList();
            if (c.background()) {
                List<String> a = new ArrayList<>(args);
                int i = a.indexOf("--listen");
                String documented = i >= 0 ? a.get(i + 1) : "127.0.0.1:7420";
                if (i >= 0) {
                    a.set(i + 1, "127.0.0.1:0");
                } else {
                    a.addAll(List.of("--listen", "127.0.0.1:0"));
                }
                ChildJvm.Running server = ChildJvm.main(Qs.class)
                        .workDir(cwd)
                        .jvmArgs("-Xmx256m")
                        .args(a.toArray(String[]::new))
                        .timeout(java.time.Duration.ofSeconds(300))
                        .start();
                background.add(server);
                String line = server.nextLine(java.time.Duration.ofSeconds(60));
                assertTrue(
                        line != null && line.startsWith("listening qs://"),
                        c.doc() + ": '" + c.line() + "' said " + line + "\n" + server.describe());
                servers.put("qs://" + documented, line.split(" ")[1]);
                continue;
            }
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
                        + "qs serve ./db &   # a server\n"
                        + "$ qs info --json ./db | jq .log\n$ qs shell ./db\nqs:db> page 1\nqs:db> exit\n```\n");
        assertEquals(
                List.of(
                        List.of("verify", "./db"),
                        List.of("backup", "./a", "./b"),
                        List.of("restore", "./b", "./c"),
                        List.of("serve", "./db"),
                        List.of("info", "--json", "./db"),
                        List.of("shell", "./db")),
                c.stream().map(Command::words).toList());
        assertEquals(List.of("page 1", "exit"), c.getLast().shellInput());
        assertEquals(
                List.of(false, false, false, true, false, false),
                c.stream().map(Command::background).toList());
    }
}
