package dev.quickstore.cli;

import dev.quickstore.replication.ClusterMembership;
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

/**
 * {@code qs cluster status|add|remove --replicas ...}: the members of a replicated page server's Raft group, and
 * changes of its membership.
 */
@Command(
        name = "cluster",
        mixinStandardHelpOptions = true,
        header = "Administer a replicated page server (a Raft group).",
        description = {"Subcommands: status, add, remove. See docs/replication.md."},
        subcommands = {ClusterCommand.Status.class, ClusterCommand.Add.class, ClusterCommand.Remove.class})
final class ClusterCommand implements Runnable {
    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new picocli.CommandLine.ParameterException(
                spec.commandLine(), "qs cluster: name a subcommand (status, add, remove)");
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
            print(spec, members, digest, json.on(), csv);
            return ClusterStatus.leader(members) != null ? ExitCodes.OK : ExitCodes.CHECK_FAILED;
        }
    }

    /** The members' rows: a table, or JSON, or CSV, on stdout. */
    static void print(
            picocli.CommandLine.Model.CommandSpec spec,
            List<ClusterStatus.Member> members,
            boolean digest,
            boolean json,
            boolean csv) {
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
        if (json) {
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
    }

    /** The options of add and remove. */
    abstract static class Change implements Callable<Integer> {
        @Option(
                names = "--replicas",
                required = true,
                paramLabel = "HOST:PORT,...",
                description = "members' client addresses, enough to reach the leader (the group's configuration is"
                        + " read from the leader)")
        String replicas;

        @Option(
                names = "--group",
                paramLabel = "NAME",
                defaultValue = ReplicaGroup.DEFAULT_NAME,
                description = "the group's name (default: ${DEFAULT-VALUE})")
        String group;

        @Option(
                names = "--timeout",
                paramLabel = "MS",
                defaultValue = "3000",
                description = "how long to wait for each member's status (default: ${DEFAULT-VALUE}); the change"
                        + " itself waits up to a minute for a new member to catch up")
        int timeoutMs;

        @Mixin
        JsonFlag json;

        @Option(names = "--csv", description = "print CSV instead of a table")
        boolean csv;

        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        /** A membership change of {@link ClusterMembership}: {@code add} or {@code remove}. */
        @FunctionalInterface
        interface Membership {
            ReplicaGroup change(ReplicaGroup g, java.net.InetSocketAddress member, int timeoutMs)
                    throws java.io.IOException, ClusterMembership.RefusedException;
        }

        /**
         * What a subcommand changes.
         *
         * @param verb the progress line's verb (adding, removing)
         * @param memberOption the subcommand's option naming the member (for its parse error)
         * @param membership the change
         */
        record Operation(String verb, String memberOption, Membership membership) {}

        private final Operation operation;

        Change(Operation operation) {
            this.operation = operation;
        }

        /** The value of the member option, HOST:PORT. */
        abstract String memberArgument();

        static java.net.InetSocketAddress address(
                picocli.CommandLine.Model.CommandSpec spec, String option, String value) {
            try {
                List<java.net.InetSocketAddress> a =
                        ReplicaGroup.parse(value, "x").members();
                if (a.size() != 1) {
                    throw new IllegalArgumentException("one replica, HOST:PORT, not " + a.size());
                }
                return a.getFirst();
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(), option + ": " + e.getMessage());
            }
        }

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
            java.net.InetSocketAddress m = address(spec, operation.memberOption(), memberArgument());
            PrintWriter err = spec.commandLine().getErr();
            err.println("qs cluster: " + operation.verb() + " " + m.getHostString() + ":" + m.getPort() + " in group "
                    + group + " (asking " + g.members().size() + " replicas for the leader)...");
            err.flush();
            ReplicaGroup after;
            try {
                after = operation.membership().change(g, m, timeoutMs);
            } catch (ClusterMembership.RefusedException e) {
                err.println("qs: error: " + e.getMessage());
                err.flush();
                return ExitCodes.CHECK_FAILED;
            }
            err.println("qs cluster: the group's members are now " + ClusterMembership.list(after.members())
                    + " (use this list as --replicas)");
            err.flush();
            print(spec, ClusterStatus.query(after, false, timeoutMs), false, json.on(), csv);
            return ExitCodes.OK;
        }
    }

    @Command(
            name = "add",
            mixinStandardHelpOptions = true,
            header = "Add a replica to the group (Raft membership change); it catches up from the log or a snapshot.",
            description = {
                "Start the new replica first - qs serve DIR --replicas <the members and the new one> --id <its",
                "position> --group NAME, DIR holding a copy of the group's seed store and server.secret - then run",
                "this: the leader adds it to the group's configuration once it has caught up (the log, or the",
                "leader's snapshot when the log was purged). Refused in one line (exit 1) when there is no leader,",
                "when the new replica does not answer or already is a member, or when the new configuration would",
                "not have a majority up. Prints the new configuration's members (a table on stdout)."
            },
            footer = {
                "",
                "Example:",
                "  qs cluster add --replicas 127.0.0.1:7420,127.0.0.1:7430,127.0.0.1:7440 --new 127.0.0.1:7450"
            })
    static final class Add extends Change {
        @Option(
                names = "--new",
                required = true,
                paramLabel = "HOST:PORT",
                description = "the new replica's client address (its Raft port is the next one)")
        String added;

        Add() {
            super(new Operation("adding", "--new", ClusterMembership::add));
        }

        @Override
        String memberArgument() {
            return added;
        }
    }

    @Command(
            name = "remove",
            mixinStandardHelpOptions = true,
            header = "Remove a replica from the group (Raft membership change); stop it afterwards.",
            description = {
                "The leader commits the group's configuration without the member (the leader itself may be",
                "removed: it steps down and the others elect one). Refused in one line (exit 1) when there is no",
                "leader, when the replica is not a member, when it is the last one, or when the new configuration",
                "would not have a majority up. Prints the new configuration's members (a table on stdout)."
            },
            footer = {
                "",
                "Example:",
                "  qs cluster remove --replicas 127.0.0.1:7420,127.0.0.1:7430,127.0.0.1:7440 --member 127.0.0.1:7440"
            })
    static final class Remove extends Change {
        @Option(
                names = "--member",
                required = true,
                paramLabel = "HOST:PORT",
                description = "the client address of the replica to remove")
        String removed;

        Remove() {
            super(new Operation("removing", "--member", ClusterMembership::remove));
        }

        @Override
        String memberArgument() {
            return removed;
        }
    }
}
