package dev.quickstore.core.remote;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The per-store secret a page-server client proves it knows (HMAC challenge; the secret never crosses the
 * wire): 32 random bytes, stored hex-encoded in {@code DIR/server.secret} with mode 0600. A secret file that
 * group or others may read is refused, as ssh refuses such a key.
 */
public final class ServerSecret {
    public static final String FILE = "server.secret";
    private static final byte[] CONTEXT = "qs-auth-1".getBytes(StandardCharsets.US_ASCII);
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private final byte[] key;

    private ServerSecret(byte[] key) {
        this.key = key;
    }

    /** The secret of the store in {@code dir}, created (mode 0600) if it has none yet. */
    public static ServerSecret loadOrCreate(Path dir) throws IOException {
        Path file = dir.resolve(FILE);
        if (!Files.exists(file)) {
            byte[] k = new byte[32];
            new SecureRandom().nextBytes(k);
            try {
                Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
                Files.writeString(file, HexFormat.of().formatHex(k) + "\n", StandardCharsets.US_ASCII);
            } catch (FileAlreadyExistsException raced) {
                // another process created it first: read theirs
            }
        }
        return read(file);
    }

    /** Reads a secret file (the store's own, or a copy given to a client). */
    public static ServerSecret read(Path file) throws IOException {
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
        for (PosixFilePermission p : perms) {
            if (!OWNER_ONLY.contains(p)) {
                throw new IOException("secret file " + file + " has mode " + PosixFilePermissions.toString(perms)
                        + ": others may read it; chmod 600 " + file);
            }
        }
        String text = Files.readString(file, StandardCharsets.US_ASCII).strip();
        byte[] k;
        try {
            k = HexFormat.of().parseHex(text);
        } catch (IllegalArgumentException e) {
            throw new IOException("secret file " + file + " is not hex: " + e.getMessage(), e);
        }
        if (k.length != 32) {
            throw new IOException("secret file " + file + " holds " + k.length + " bytes, expected 32");
        }
        return new ServerSecret(k);
    }

    /** HMAC-SHA256(secret, "qs-auth-1" || nonce): what a PROOF frame carries. */
    public byte[] proof(byte[] nonce) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update(CONTEXT);
            return mac.doFinal(nonce);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is a required JDK algorithm", e);
        }
    }

    /** Whether {@code proof} is this secret's proof of {@code nonce} (constant-time comparison). */
    public boolean verifies(byte[] nonce, byte[] proof) {
        return MessageDigest.isEqual(proof(nonce), proof);
    }
}
