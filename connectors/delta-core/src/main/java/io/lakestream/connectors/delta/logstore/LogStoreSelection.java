package io.lakestream.connectors.delta.logstore;

import io.lakestream.api.annotation.Internal;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses the Delta log stores that Kernel's default engine uses per URI scheme (Hadoop setting
 * {@value #KERNEL_LOG_STORE_KEY}): {@link S3ConditionalPutLogStore} for {@code s3a://}, and for
 * {@code s3://} when {@code fs.s3.impl} maps that scheme to S3A; {@link LocalLinkLogStore} for
 * {@code file:} paths, where Kernel's default (check, then a rename that replaces) let two writers
 * both commit one version. Other schemes keep Kernel's defaults (HDFS renames without overwrite,
 * which is put-if-absent).
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
  private static final String LOCAL_LOG_STORE =
      "io.lakestream.connectors.delta.logstore.LocalLinkLogStore";

  private LogStoreSelection() {}

  /**
   * Sets the log store for {@code s3a} (and {@code s3} when it is S3A) and {@code file} in {@code
   * conf}.
   */
  public static void applyTo(Configuration conf) {
    selectFor(conf, "s3a", S3_LOG_STORE);
    if (S3A_FILE_SYSTEM.equals(conf.getTrimmed("fs.s3.impl"))) {
      selectFor(conf, "s3", S3_LOG_STORE);
    }
    selectFor(conf, "file", LOCAL_LOG_STORE);
  }

  private static void selectFor(Configuration conf, String scheme, String ours) {
    String key = String.format(KERNEL_LOG_STORE_KEY, scheme);
    String configured = conf.getTrimmed(key);
    if (configured == null || configured.isEmpty()) {
      conf.set(key, ours);
    } else if (!configured.equals(ours)) {
      LOG.warn(
          "{} is set to {}: Delta commits on {}:// use it instead of {}; make sure it is"
              + " put-if-absent across machines, or two writers may both write one version",
          key,
          configured,
          scheme,
          ours);
    }
  }
}
