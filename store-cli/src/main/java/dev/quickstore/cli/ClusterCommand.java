package dev.quickstore.cli;

import dev.quickstore.replication.ClusterStatus;
import dev.quickstore.replication.ReplicaGroup;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code qs cluster status --replicas ...}: the members of a replicated page server's Raft group. */
@Command(
        name = "cluster",
        mixinStandardHelpOptions = true,
        header = "Administer a replicated page server (a Raft group).",
        description = {"Subcommands: status. See docs/replication.md."},
        subcommands = {ClusterCommand.Status.class})
final class ClusterCommand implements Runnable {
    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), "qs cluster: name a subcommand (status)");
    }

    @Command(
            name = "status",
            mixinStandardHelpOptions = true,
            header = "Show every replica: role, term, leader, commit and applied index, lag, snapshot.",
            description = {
                "Ask every member of the group (over Raft; no leader is needed) for its role (LEADER, FOLLOWER,",
                "CANDIDATE, or DOWN when it does not answer), term, the leader it knows, its commit and applied",
                "log index, its lag (entries behind the most advanced member), its latest snapshot's index and its",
                "page count; with --digest also the SHA-256 of its committed pages at its applied index (replicas at",
                "the same applied index must show the same digest). Progress on stderr, a table on stdout. Exit 0",
                "when a leader is up, 1 when none is."
            },
            footer = {
                "",
                "Examples:",
                "  qs cluster status --replicas 127.0.0.1:7420,127.0.0.1:7430,127.0.0.1:7440",
                "  qs cluster status --replicas 127.0.0.1:7420,127.0.0.1:7430,127.0.0.1:7440 --digest --json"
            })
    static final class Status implements Callable<Integer> {
        @Option(
                names = "--replicas",
                required = true,
                paramLabel = "HOST:PORT,...",
                description = "the members' client addresses, as given to qs serve --replicas")
        String replicas;

        @Option(
                names = "--group",
                paramLabel = "NAME",
                defaultValue = ReplicaGroup.DEFAULT_NAME,
                description = "the group's name (default: ${DEFAULT-VALUE})")
        String group;

        @Option(names = "--digest", description = "also the SHA-256 of each replica's committed pages")
        boolean digest;

        @Option(
                names = "--timeout",
                paramLabel = "MS",
                defaultValue = "3000",
                description = "how long to wait for each member (default: ${DEFAULT-VALUE})")
        int timeoutMs;

        @Mixin
        JsonFlag json;

        @Option(names = "--csv", description = "print CSV instead of a table")
        boolean csv;

        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            ReplicaGroup g;
            try {
                g = ReplicaGroup.parse(replicas, group);
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--replicas: " + e.getMessage());
            }
            if (timeoutMs < 1) {
                throw new picocli.CommandLine.ParameterException(
                        spec.commandLine(), "--timeout " + timeoutMs + ": at least 1 ms");
            }
            PrintWriter err = spec.commandLine().getErr();
            err.println("qs cluster: asking " + g.members().size() + " replicas of group " + group + "...");
            err.flush();
            List<ClusterStatus.Member> members = ClusterStatus.query(g, digest, timeoutMs);
            long most = members.stream()
                    .mapToLong(ClusterStatus.Member::appliedIndex)
                    .max()
                    .orElse(-1);
            List<Map<String, Object>> rows = new ArrayList<>();
            for (ClusterStatus.Member m : members) {
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("id", m.id());
                r.put("address", m.uri());
                r.put("role", m.role());
                r.put("term", m.term());
                r.put("leader", m.leaderId() == 0 ? "-" : Integer.toString(m.leaderId()));
                r.put("commit", m.commitIndex());
                r.put("applied", m.appliedIndex());
                r.put("lag", m.up() ? most - m.appliedIndex() : -1);
                r.put("snapshot", m.snapshotIndex());
                r.put("pages", m.pages());
                if (digest) {
                    r.put("digest", m.digest() == null ? "-" : m.digest());
                }
                r.put("error", m.error() == null ? "" : m.error());
                rows.add(r);
            }
            PrintWriter out = spec.commandLine().getOut();
            if (json.on()) {
                out.println(Json.object(rows));
            } else if (csv) {
                out.println(String.join(",", rows.getFirst().keySet()));
                for (Map<String, Object> r : rows) {
                    List<String> cells = new ArrayList<>();
                    for (Object v : r.values()) {
                        String s = String.valueOf(v);
                        cells.add(s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s);
                    }
                    out.println(String.join(",", cells));
                }
            } else {
                out.printf(
                        "%-3s %-24s %-9s %5s %6s %8s %8s %5s %8s %6s%s %s%n",
                        "id",
                        "address",
                        "role",
                        "term",
                        "leader",
                        "commit",
                        "applied",
                        "lag",
                        "snapshot",
                        "pages",
                        digest ? " digest" + " ".repeat(58) : "",
                        "error");
                for (Map<String, Object> r : rows) {
                    out.printf(
                            "%-3s %-24s %-9s %5s %6s %8s %8s %5s %8s %6s%s %s%n",
                            r.get("id"),
                            r.get("address"),
                            r.get("role"),
                            r.get("term"),
                            r.get("leader"),
                            r.get("commit"),
                            r.get("applied"),
                            r.get("lag"),
                            r.get("snapshot"),
                            r.get("pages"),
                            digest ? " " + String.format("%-64s", r.get("digest")) : "",
                            r.get("error"));
                }
            }
            return ClusterStatus.leader(members) != null ? ExitCodes.OK : ExitCodes.CHECK_FAILED;
        }
    }
}
