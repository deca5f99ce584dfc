package io.lakestream.connectors.delta.kernel;

import io.delta.kernel.defaults.internal.logstore.LogStoreProvider;
import io.delta.storage.LogStore;
import io.lakestream.api.annotation.Internal;
import org.apache.hadoop.conf.Configuration;

/**
 * The log store Kernel's default engine commits through for a file system scheme. Wraps Kernel's
 * {@code defaults.internal.logstore.LogStoreProvider}: Kernel's public API commits only the actions
 * it can build, while a MERGE with change data feed writes its own commit file, which must go
 * through the same put-if-absent log store (e.g. {@code S3ConditionalPutLogStore} on {@code
 * s3a://}) so exactly one writer gets each version.
 */
@Internal
public final class KernelLogStores {
  private KernelLogStores() {}

  /**
   * The log store for {@code scheme} under {@code conf} (its {@code delta.logStore.*} settings).
   */
  public static LogStore forScheme(Configuration conf, String scheme) {
    return LogStoreProvider.getLogStore(conf, scheme);
  }
}
