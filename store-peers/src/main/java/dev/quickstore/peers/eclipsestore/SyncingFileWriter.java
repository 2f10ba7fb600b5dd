package dev.quickstore.peers.eclipsestore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.serializer.afs.types.AFile;
import org.eclipse.store.afs.nio.types.NioFileSystem;
import org.eclipse.store.storage.types.StorageFile;
import org.eclipse.store.storage.types.StorageFileWriter;
import org.eclipse.store.storage.types.StorageLiveChannelFile;
import org.eclipse.store.storage.types.StorageLiveDataFile;
import org.eclipse.store.storage.types.StorageLiveTransactionsFile;

/**
 * An Eclipse Store {@link StorageFileWriter} that makes every write durable before it returns: after Eclipse
 * Store's own write it forces the written file to the device ({@link FileChannel#force(boolean)
 * force(false)}, {@code fdatasync}: the data and the file length) and, the first time it sees a file, its
 * directory (the new file's name). This is what makes a committed {@code store()} durable.
 *
 * <p>Why it is needed: Eclipse Store 2.1.3's storage channel writes entity data and then a transactions-file
 * entry with {@code FileChannel.write} only ({@code NioIoHandler.specificWriteBytes} calls {@code
 * XIO.write}); no code path of its storage or NIO file system calls {@code force} (checked in the 2.1.3 class
 * files), so a returned {@code store()} survives a process crash (the bytes are in the OS page cache) but not
 * a power loss or kernel crash. Eclipse Store added an fsync barrier after 2.1.3 (eclipse-store/store pull
 * request 751, eclipse-serializer/serializer pull request 301, unreleased at the time of writing); until it
 * ships, a user who needs commit-is-durable plugs in a writer like this one through {@code
 * StorageFoundation.setWriterProvider}, the extension point Eclipse Store offers for file writing.
 *
 * <p>Order: the channel writes the data of a store, then its transactions-file entry; each write is forced
 * before the next begins, so the entry never reaches the device before the data it describes (on start,
 * Eclipse Store validates the data files against the transactions file). Forcing through a second file
 * descriptor is enough on Linux: {@code fsync}/{@code fdatasync} write back the file's dirty pages whatever
 * descriptor wrote them.
 */
final class SyncingFileWriter implements StorageFileWriter {
    private final AtomicLong storedBytes;
    private final AtomicLong syncs;
    private final Set<Path> known = ConcurrentHashMap.newKeySet();

    SyncingFileWriter(AtomicLong storedBytes, AtomicLong syncs) {
        this.storedBytes = storedBytes;
        this.syncs = syncs;
    }

    @Override
    public long writeStore(StorageLiveDataFile target, Iterable<? extends ByteBuffer> byteBuffers) {
        long n = StorageFileWriter.super.writeStore(target, byteBuffers);
        storedBytes.addAndGet(n);
        force(target);
        return n;
    }

    @Override
    public long writeTransfer(
            StorageLiveDataFile sourceFile, long sourcePosition, long length, StorageLiveDataFile targetFile) {
        long n = StorageFileWriter.super.writeTransfer(sourceFile, sourcePosition, length, targetFile);
        force(targetFile);
        return n;
    }

    @Override
    public long writeTransactionEntryCreate(
            StorageLiveTransactionsFile transactionsFile,
            Iterable<? extends ByteBuffer> byteBuffers,
            StorageLiveDataFile dataFile) {
        long n = StorageFileWriter.super.writeTransactionEntryCreate(transactionsFile, byteBuffers, dataFile);
        force(transactionsFile);
        return n;
    }

    @Override
    public long writeTransactionEntryStore(
            StorageLiveTransactionsFile transactionsFile,
            Iterable<? extends ByteBuffer> byteBuffers,
            StorageLiveDataFile dataFile,
            long dataFileOffset,
            long storeLength) {
        long n = StorageFileWriter.super.writeTransactionEntryStore(
                transactionsFile, byteBuffers, dataFile, dataFileOffset, storeLength);
        force(transactionsFile);
        return n;
    }

    @Override
    public long writeTransactionEntryTransfer(
            StorageLiveTransactionsFile transactionsFile,
            Iterable<? extends ByteBuffer> byteBuffers,
            StorageLiveDataFile dataFile,
            long dataFileOffset,
            long storeLength) {
        long n = StorageFileWriter.super.writeTransactionEntryTransfer(
                transactionsFile, byteBuffers, dataFile, dataFileOffset, storeLength);
        force(transactionsFile);
        return n;
    }

    @Override
    public long writeTransactionEntryDelete(
            StorageLiveTransactionsFile transactionsFile,
            Iterable<? extends ByteBuffer> byteBuffers,
            StorageLiveDataFile dataFile) {
        long n = StorageFileWriter.super.writeTransactionEntryDelete(transactionsFile, byteBuffers, dataFile);
        force(transactionsFile);
        return n;
    }

    @Override
    public long writeTransactionEntryTruncate(
            StorageLiveTransactionsFile transactionsFile,
            Iterable<? extends ByteBuffer> byteBuffers,
            StorageLiveDataFile dataFile,
            long newFileLength) {
        long n = StorageFileWriter.super.writeTransactionEntryTruncate(
                transactionsFile, byteBuffers, dataFile, newFileLength);
        force(transactionsFile);
        return n;
    }

    @Override
    public void truncate(
            StorageLiveChannelFile<?> file,
            long newLength,
            org.eclipse.store.storage.types.StorageFileProvider fileProvider) {
        StorageFileWriter.super.truncate(file, newLength, fileProvider);
        force(file);
    }

    private void force(StorageFile file) {
        AFile f = file.file();
        if (!(f.fileSystem() instanceof NioFileSystem nio)) {
            throw new IllegalStateException("cannot force " + f.toPathString() + " to the device: not on the NIO file"
                    + " system but on " + f.fileSystem().getClass().getName());
        }
        Path path = nio.ioHandler().toPath(f);
        try {
            try (FileChannel ch = FileChannel.open(path, StandardOpenOption.WRITE)) {
                ch.force(false);
            }
            syncs.incrementAndGet();
            if (known.add(path) && path.getParent() != null) {
                try (FileChannel dir = FileChannel.open(path.getParent(), StandardOpenOption.READ)) {
                    dir.force(true);
                }
                syncs.incrementAndGet();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not force " + path + " to the device after a write", e);
        }
    }
}
