package dev.quickstore.core.remote;

import dev.quickstore.core.verify.VerifyReport;
import java.nio.charset.StandardCharsets;

/**
 * The payload of a VERIFIED frame ({@link SessionFrame}): the page server's {@code Store.verify()} report as
 * UTF-8 lines - {@code pagesChecked=N objects=N indexEntries=N problems=K}, then K lines {@code PAGE<TAB>message}.
 */
public final class VerifyMessages {
    private VerifyMessages() {}

    public static byte[] encode(VerifyReport r) {
        StringBuilder b = new StringBuilder()
                .append("pagesChecked=")
                .append(r.pagesChecked())
                .append(" objects=")
                .append(r.objects())
                .append(" indexEntries=")
                .append(r.indexEntries())
                .append(" problems=")
                .append(r.problems().size())
                .append('\n');
        for (VerifyReport.Problem p : r.problems()) {
            b.append(p.pageId())
                    .append('\t')
                    .append(p.message().replace('\n', ' '))
                    .append('\n');
        }
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    public static VerifyReport decode(byte[] payload) throws SessionFrame.ProtocolException {
        String[] lines = new String(payload, StandardCharsets.UTF_8).split("\n");
        long[] v = new long[4];
        String[] keys = {"pagesChecked", "objects", "indexEntries", "problems"};
        if (lines.length == 0) { // a payload of line feeds only (found by CI's brief fuzzing, issue 14)
            throw new SessionFrame.ProtocolException("VERIFIED: no first line");
        }
        String[] words = lines[0].split(" ");
        if (words.length != 4) {
            throw new SessionFrame.ProtocolException("VERIFIED: first line '" + lines[0] + "'");
        }
        try {
            for (int i = 0; i < 4; i++) {
                if (!words[i].startsWith(keys[i] + "=")) {
                    throw new SessionFrame.ProtocolException("VERIFIED: '" + words[i] + "', expected " + keys[i]);
                }
                v[i] = Long.parseLong(words[i].substring(keys[i].length() + 1));
                if (v[i] < 0) {
                    throw new SessionFrame.ProtocolException("VERIFIED: " + keys[i] + " " + v[i] + " is negative");
                }
            }
            if (lines.length - 1 != v[3]) {
                throw new SessionFrame.ProtocolException(
                        "VERIFIED: " + v[3] + " problems announced, " + (lines.length - 1) + " given");
            }
            VerifyReport r = new VerifyReport();
            r.addPagesChecked(v[0]);
            r.objects(v[1]);
            r.indexEntries(v[2]);
            for (int i = 1; i < lines.length; i++) {
                int tab = lines[i].indexOf('\t');
                if (tab < 0) {
                    throw new SessionFrame.ProtocolException("VERIFIED: problem line '" + lines[i] + "'");
                }
                r.problem(Long.parseLong(lines[i].substring(0, tab)), lines[i].substring(tab + 1));
            }
            return r;
        } catch (NumberFormatException e) {
            throw new SessionFrame.ProtocolException("VERIFIED: " + e.getMessage());
        }
    }
}
