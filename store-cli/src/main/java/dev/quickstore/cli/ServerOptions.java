package dev.quickstore.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** How to reach a page server, for the commands that accept a {@code qs://HOST:PORT} address (a picocli mixin). */
public final class ServerOptions {
    @Option(
            names = "--secret",
            paramLabel = "FILE",
            description = "for a qs:// address: a copy of the store's server.secret (mode 0600) to authenticate with")
    Path secret;

    @Option(
            names = "--timeout",
            paramLabel = "MS",
            defaultValue = "5000",
            description =
                    "for a qs:// address: how long to wait for each answer of the server (default: ${DEFAULT-VALUE})")
    int timeoutMs;

    /**
     * The secret file.
     *
     * @throws picocli.CommandLine.ParameterException when none was given
     */
    Path secret(picocli.CommandLine cmd, String command, String server) {
        if (secret == null) {
            throw new picocli.CommandLine.ParameterException(
                    cmd,
                    "qs " + command + " " + server + ": a page server needs --secret FILE (a copy of the store's "
                            + dev.quickstore.core.remote.ServerSecret.FILE + ")");
        }
        return secret;
    }
}
