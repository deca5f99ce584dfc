package io.lakestream.connectors.delta.lease;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.logstore.S3ConditionalPut;
import io.lakestream.state.checkpoint.CreateIfAbsent;
import java.io.IOException;
import java.util.Set;
import org.apache.flink.configuration.Configuration;

/**
 * Serves the checkpoint location's lease on S3 ({@code s3://}, {@code s3a://}, {@code s3p://}) with
 * {@link S3ConditionalPut}, through the Hadoop S3A on the job's classpath (the one Delta tables on
 * S3 use, see {@code connectors/README-s3.md}), configured like Flink's own S3 file system: the
 * Flink settings {@code s3.*}, {@code s3a.*} and {@code fs.s3a.*} become {@code fs.s3a.*} ({@link
 * S3LeaseCreate#hadoopConfiguration}). Found by {@link java.util.ServiceLoader}.
 *
 * <p>Without S3A on the classpath {@link #create} fails with a message naming what to add; it never
 * falls back to a write that two runs could both win.
 */
@Internal
public final class S3LeaseCreateFactory implements CreateIfAbsent.Factory {
  private static final String S3A_CLASS = "org.apache.hadoop.fs.s3a.S3AFileSystem";

  @Override
  public Set<String> schemes() {
    return Set.of("s3", "s3a", "s3p");
  }

  @Override
  public CreateIfAbsent create(Configuration flinkConfiguration) throws IOException {
    try {
      Class.forName(S3A_CLASS, false, S3LeaseCreateFactory.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      throw new IOException(
          "A checkpoint location on S3 takes its lease with a conditional PUT through Hadoop S3A,"
              + " which is not on the classpath: add org.apache.hadoop:hadoop-aws 3.4.2 or newer"
              + " and the AWS SDK v2 (see connectors/README-s3.md), as Delta tables on S3 need.",
          e);
    }
    return new S3LeaseCreate(S3LeaseCreate.hadoopConfiguration(flinkConfiguration));
  }
}
