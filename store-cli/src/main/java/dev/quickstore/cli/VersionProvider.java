package dev.quickstore.cli;

import dev.quickstore.mmu.NativeLibrary;
import dev.quickstore.mmu.NativeLibraryException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** {@code qs --version}: project version, JVM, and the native library that was loaded (or why not). */
final class VersionProvider implements IVersionProvider {
    static String projectVersion() {
        Properties p = new Properties();
        try (InputStream in = VersionProvider.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            return "unknown (" + e.getMessage() + ")";
        }
        return p.getProperty("version", "unknown");
    }

    @Override
    public String[] getVersion() {
        String nativeInfo;
        try {
            nativeInfo = NativeLibrary.buildInfo() + " (" + NativeLibrary.path() + ")";
        } catch (NativeLibraryException e) {
            nativeInfo = "unavailable: " + e.getMessage();
        }
        return new String[] {
            "QuickStore/J " + projectVersion(),
            "JVM: " + Runtime.version() + " (" + System.getProperty("java.vm.name") + ", "
                    + System.getProperty("java.home") + ")",
            "native: " + nativeInfo
        };
    }
}
