package io.lakestream.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * A fresh directory under {@code java.io.tmpdir} that is deleted, with everything in it, on {@link
 * #close()}.
 *
 * <p>Deletion is best effort only in the sense that files which vanish while it runs are ignored;
 * any other failure is reported as an {@link UncheckedIOException}.
 */
public final class TempDirectory implements AutoCloseable {

  private final Path path;

  private TempDirectory(Path path) {
    this.path = path;
  }

  /**
   * Creates a new, empty directory whose name starts with {@code prefix}.
   *
   * @throws UncheckedIOException if the directory cannot be created
   */
  public static TempDirectory create(String prefix) {
    try {
      return new TempDirectory(Files.createTempDirectory(prefix).toAbsolutePath());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a temporary directory " + prefix + "*", e);
    }
  }

  /** The absolute path of the directory. */
  public Path path() {
    return path;
  }

  /**
   * Deletes the directory and everything under it; does nothing if it is already gone.
   *
   * @throws UncheckedIOException if something under it cannot be deleted
   */
  @Override
  public void close() {
    deleteRecursively(path);
  }

  /**
   * Deletes {@code root} and everything under it; does nothing if it does not exist.
   *
   * @throws UncheckedIOException if something under it cannot be deleted
   */
  public static void deleteRecursively(Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try {
      Files.walkFileTree(
          root,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
                throws IOException {
              Files.deleteIfExists(file);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
              if (e instanceof NoSuchFileException) {
                return FileVisitResult.CONTINUE;
              }
              throw e;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
              if (e != null && !(e instanceof NoSuchFileException)) {
                throw e;
              }
              Files.deleteIfExists(dir);
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + root, e);
    }
  }

  @Override
  public String toString() {
    return path.toString();
  }
}
