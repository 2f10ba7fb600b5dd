package dev.quickstore.cli.oo7;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.quickstore.cli.QsCommandTest;
import dev.quickstore.cli.QsCommandTest.Run;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code qs oo7 report --html} from the JSON of a real {@code qs oo7 run}, opened in headless Chromium (the
 * Debian package {@code chromium}; missing, the test fails with the command that installs it, as the native
 * build does without gcc): the page loads without errors and shows every plot (the page's own check, read back
 * with {@code --dump-dom}), and a screenshot shows the bars in the first system's colour.
 */
class Oo7HtmlReportTest {
    private static final Duration CHROMIUM_TIMEOUT = Duration.ofSeconds(120);

    @TempDir
    Path tmp;

    @Test
    void theReportOfARealRunLoadsInChromiumWithoutErrorsAndShowsEveryPlot() throws Exception {
        Path json = tmp.resolve("run.json");
        Run r = QsCommandTest.qs(
                "oo7",
                "run",
                "--system",
                "heap,qs",
                "--ops",
                "T1,Q1",
                "--reps",
                "1",
                "--warmup",
                "0",
                "--json",
                json.toString());
        assertEquals(0, r.code(), r.err());
        // the same measurements again under another file name: the report takes any system names (qs@again)
        Path again = tmp.resolve("again.json");
        Files.copy(json, again);
        Path html = tmp.resolve("report.html");
        Run rep = QsCommandTest.qs("oo7", "report", json.toString(), again.toString(), "--html", html.toString());
        assertEquals(0, rep.code(), rep.err());
        assertTrue(rep.out().contains("HTML report: " + html.toAbsolutePath()), rep.out());

        String page = Files.readString(html);
        // T1 and Q1 (cold and hot each), then the paper's size, pages read and cost per fault
        for (String id : List.of("op-t1", "op-q1", "paper-size", "paper-io", "paper-fault")) {
            assertTrue(page.contains("<svg id='" + id + "'"), "plot " + id);
        }
        assertEquals(5, count(page, "<figure class=\"plot"), "plots");
        assertTrue(page.contains("data-plots-expected=\"5\""), "the page knows its plot count");
        for (String series : List.of("qs@again", "paper: QS (1994)", "paper: E (1994)", "paper: QS-B (1994)")) {
            assertTrue(page.contains(">" + series + "</text>"), "legend entry " + series); // JFreeSVG's text
        }
        assertTrue(page.contains("<b>The hardware differs</b>"), "the caveat");
        assertTrue(page.contains("<th>qs ms</th>") && page.contains("<th>qs@again ms</th>"), "the table");
        // the machine of the run, recorded in its JSON: this JVM ran it
        assertTrue(
                page.contains(
                        ">" + Oo7HtmlReport.esc(Runtime.version() + " (" + System.getProperty("java.vm.name") + ")")),
                "the JDK");
        // self-contained: nothing is loaded from elsewhere (xmlns values are names, not resources)
        Matcher ref = Pattern.compile("(?:src|href)\\s*=\\s*[\"'](?!#)|url\\((?!#)|@import")
                .matcher(page);
        assertFalse(ref.find(), () -> "an external reference: " + ref.group());

        Path chromium = chromium();
        Map<String, String> checked = htmlAttributes(dumpDom(chromium, html));
        assertEquals("true", checked.get("data-checked"), "the load handler ran: " + checked);
        assertEquals("0", checked.get("data-errors"), "errors while loading: " + checked);
        assertEquals("5", checked.get("data-plots"), checked.toString());
        assertEquals("5", checked.get("data-plots-shown"), "every plot drawn with a non-empty box: " + checked);

        // the check can fail: a copy with one plot hidden and a script that throws
        Path broken = tmp.resolve("broken.html");
        Files.writeString(
                broken,
                page.replaceFirst("<figure class=\"plot\"", "<figure style=\"display:none\" class=\"plot\"")
                        .replace("</body>", "<script>null.x;</script></body>"));
        Map<String, String> bad = htmlAttributes(dumpDom(chromium, broken));
        assertEquals("1", bad.get("data-errors"), bad.toString());
        assertEquals("4", bad.get("data-plots-shown"), bad.toString());

        Path png = tmp.resolve("report.png");
        screenshot(chromium, html, png);
        BufferedImage shot = ImageIO.read(png.toFile());
        assertEquals(1280, shot.getWidth());
        assertEquals(2400, shot.getHeight());
        int heapBlue = 0x0072B2; // the first system's colour (Oo7Charts.Palette)
        int bars = 0;
        int notBackground = 0;
        java.util.Set<Integer> colours = new java.util.HashSet<>();
        for (int y = 0; y < shot.getHeight(); y++) {
            for (int x = 0; x < shot.getWidth(); x++) {
                int rgb = shot.getRGB(x, y) & 0xFFFFFF;
                colours.add(rgb);
                bars += rgb == heapBlue ? 1 : 0;
                notBackground += rgb == 0xFAFAFA || rgb == 0xFFFFFF ? 0 : 1;
            }
        }
        assertTrue(colours.size() > 100, "a rendered page has text and charts: " + colours.size() + " colours");
        assertTrue(notBackground > shot.getWidth() * shot.getHeight() / 50, "drawn pixels: " + notBackground);
        assertTrue(bars > 2_000, "the heap's bars in the screenshot: " + bars + " pixels of #0072B2");
    }

    /**
     * Chromium from PATH (or /usr/bin/chromium); missing, a failure that names the package: the report's test
     * cannot run without a browser, and skipping it silently would hide that it did not run.
     */
    private static Path chromium() {
        List<Path> candidates = new ArrayList<>();
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!dir.isEmpty()) {
                candidates.add(Path.of(dir, "chromium"));
            }
        }
        candidates.add(Path.of("/usr/bin/chromium"));
        for (Path p : candidates) {
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return fail("no 'chromium' on PATH or in /usr/bin: the HTML report is tested in headless Chromium - install"
                + " it with 'apt-get install -y chromium' (Debian; .ci/run does this before bin/test)");
    }

    private String dumpDom(Path chromium, Path html) throws Exception {
        Path out = Files.createTempFile(tmp, "dom-", ".html");
        runChromium(
                chromium,
                out,
                "--virtual-time-budget=10000",
                "--dump-dom",
                html.toUri().toString());
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    private void screenshot(Path chromium, Path html, Path png) throws Exception {
        runChromium(
                chromium,
                tmp.resolve("screenshot.out"),
                "--hide-scrollbars",
                "--window-size=1280,2400",
                "--virtual-time-budget=10000",
                "--screenshot=" + png,
                html.toUri().toString());
        assertTrue(Files.size(png) > 10_000, png + ": " + Files.size(png) + " bytes");
    }

    /**
     * Runs headless Chromium with a fresh profile directory (and configuration and cache directories in it),
     * standard output to {@code out}, within {@link
     * #CHROMIUM_TIMEOUT}; it and every process it started are killed in any case. As root Chromium refuses to
     * start without {@code --no-sandbox} (its sandbox needs an unprivileged user), so that flag is added only
     * for root; the page is a local file this test wrote.
     */
    private void runChromium(Path chromium, Path out, String... args) throws Exception {
        Path profile = Files.createTempDirectory(tmp, "chromium-profile-");
        Path err = Files.createTempFile(tmp, "chromium-", ".err");
        List<String> cmd = new ArrayList<>(List.of(
                chromium.toString(),
                "--headless",
                "--disable-gpu",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions",
                "--disable-dev-shm-usage", // containers' /dev/shm is often too small for a renderer
                "--user-data-dir=" + profile));
        if (isRoot()) {
            cmd.add("--no-sandbox");
        }
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        // its crash reports and caches go to the test directory, not the user's home
        pb.environment().put("XDG_CONFIG_HOME", profile.resolve("config").toString());
        pb.environment().put("XDG_CACHE_HOME", profile.resolve("cache").toString());
        Process p = pb.redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .start();
        try {
            if (!p.waitFor(CHROMIUM_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                fail("chromium did not finish within " + CHROMIUM_TIMEOUT.toSeconds() + " s: " + cmd + "\n"
                        + tail(err));
            }
            assertEquals(0, p.exitValue(), "chromium " + cmd + " exited " + p.exitValue() + "\n" + tail(err));
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static boolean isRoot() throws IOException {
        return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
    }

    private static String tail(Path file) throws IOException {
        String s = Files.readString(file, StandardCharsets.UTF_8);
        return s.length() > 4000 ? s.substring(s.length() - 4000) : s;
    }

    /** The attributes of the {@code <html>} start tag of a serialized DOM. */
    private static Map<String, String> htmlAttributes(String dom) {
        Matcher tag = Pattern.compile("<html([^>]*)>").matcher(dom);
        assertTrue(
                tag.find(), "no <html> in the DOM Chromium dumped: " + dom.substring(0, Math.min(500, dom.length())));
        Map<String, String> attrs = new HashMap<>();
        Matcher a = Pattern.compile("([\\w-]+)=\"([^\"]*)\"").matcher(tag.group(1));
        while (a.find()) {
            attrs.put(a.group(1), a.group(2));
        }
        return attrs;
    }

    private static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }
}
