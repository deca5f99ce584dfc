package io.lakestream.connectors.delta.logstore;

import io.lakestream.api.annotation.Internal;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses the Delta log stores that Kernel's default engine uses per URI scheme (Hadoop setting
 * {@value #KERNEL_LOG_STORE_KEY}): {@link S3ConditionalPutLogStore} for {@code s3a://}, and for
 * {@code s3://} when {@code fs.s3.impl} maps that scheme to S3A. Other schemes keep Kernel's
 * defaults (local and HDFS rename without overwrite, which is already put-if-absent).
 *
 * <p>A log store the user configured for a scheme is kept, with a warning when it is not ours. This
 * class refers to no S3A class, so it is safe on a classpath without hadoop-aws.
 */
@Internal
public final class LogStoreSelection {
  private static final Logger LOG = LoggerFactory.getLogger(LogStoreSelection.class);

  /** Kernel's per-scheme log store setting; {@code %s} is the URI scheme. */
  public static final String KERNEL_LOG_STORE_KEY = "io.delta.kernel.logStore.%s.impl";

  static final String S3A_FILE_SYSTEM = "org.apache.hadoop.fs.s3a.S3AFileSystem";
  private static final String S3_LOG_STORE =
      "io.lakestream.connectors.delta.logstore.S3ConditionalPutLogStore";

  private LogStoreSelection() {}

  /** Sets the log store for {@code s3a} (and {@code s3} when it is S3A) in {@code conf}. */
  public static void applyTo(Configuration conf) {
    selectFor(conf, "s3a");
    if (S3A_FILE_SYSTEM.equals(conf.getTrimmed("fs.s3.impl"))) {
      selectFor(conf, "s3");
    }
  }

  private static void selectFor(Configuration conf, String scheme) {
    String key = String.format(KERNEL_LOG_STORE_KEY, scheme);
    String configured = conf.getTrimmed(key);
    if (configured == null || configured.isEmpty()) {
      conf.set(key, S3_LOG_STORE);
    } else if (!configured.equals(S3_LOG_STORE)) {
      LOG.warn(
          "{} is set to {}: Delta commits on {}:// use it instead of {}; make sure it is"
              + " put-if-absent across machines, or two writers may both write one version",
          key,
          configured,
          scheme,
          S3_LOG_STORE);
    }
  }
}
