package io.lakestream.connectors.lakebase.sink.writer;

import io.lakestream.api.annotation.Internal;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The {@link PostgresBatchWriter}s (one connection each) that sink tasks of this JVM share when
 * option tasksPerConnection is above 1: tasks {@code i} with the same {@code i /
 * tasksPerConnection} of the same sink use one writer, whose {@code write} is synchronized, so
 * their flushes take turns. The writer is closed when its last task releases it.
 */
@Internal
public final class SharedConnections {
  private static final Map<String, Shared> SHARED = new HashMap<>();

  private SharedConnections() {}

  private static final class Shared {
    final PostgresBatchWriter writer;
    int users;

    Shared(PostgresBatchWriter writer) {
      this.writer = writer;
    }
  }

  /** The writer for {@code key}, created by {@code factory} for its first user. */
  public static synchronized PostgresBatchWriter acquire(
      String key, Supplier<PostgresBatchWriter> factory) {
    Shared shared = SHARED.computeIfAbsent(key, k -> new Shared(factory.get()));
    shared.users++;
    return shared.writer;
  }

  /** Releases one use of {@code key}; the last one closes the writer. */
  public static synchronized void release(String key) {
    Shared shared = SHARED.get(key);
    if (shared != null && --shared.users == 0) {
      SHARED.remove(key);
      shared.writer.close();
    }
  }

  /** How many writers are shared now. */
  public static synchronized int size() {
    return SHARED.size();
  }
}
