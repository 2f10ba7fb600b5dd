package dev.quickstore.core.verify;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** What {@code Store.verify()} found: pages checked and every problem, each naming its page. */
public final class VerifyReport {
    /** One problem on one page ({@code pageId} -1 for store-wide problems). */
    public record Problem(long pageId, String message) {
        @Override
        public String toString() {
            return (pageId >= 0 ? "page " + pageId + ": " : "") + message;
        }
    }

    private final List<Problem> problems = new ArrayList<>();
    private long pagesChecked;
    private long objects;
    private long indexEntries;

    /** An empty report; the checkers add to it. */
    public VerifyReport() {}

    public void problem(long pageId, String message) {
        problems.add(new Problem(pageId, message));
    }

    /** Adds {@code n} pages checked at once (a report received from a page server). */
    public void addPagesChecked(long n) {
        pagesChecked += n;
    }

    public void pageChecked() {
        pagesChecked++;
    }

    public void objects(long n) {
        objects += n;
    }

    public void indexEntries(long n) {
        indexEntries += n;
    }

    public boolean ok() {
        return problems.isEmpty();
    }

    public List<Problem> problems() {
        return Collections.unmodifiableList(problems);
    }

    public long pagesChecked() {
        return pagesChecked;
    }

    public long objects() {
        return objects;
    }

    public long indexEntries() {
        return indexEntries;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        sb.append(ok() ? "OK" : problems.size() + " problem(s)")
                .append(": ")
                .append(pagesChecked)
                .append(" pages, ")
                .append(objects)
                .append(" objects, ")
                .append(indexEntries)
                .append(" index entries");
        for (Problem p : problems) {
            sb.append("\n  ").append(p);
        }
        return sb.toString();
    }
}
