package io.lakestream.testkit.s3;

import java.util.Map;
import java.util.TreeMap;

/** Hadoop S3A settings that point {@code s3a://<bucket>/...} at a test {@link S3Server}. */
public final class S3aSettings {
  private S3aSettings() {}

  /**
   * Endpoint, path-style access, fixed keys, plain HTTP and small retry limits. Hadoop caches one
   * S3A client per bucket and JVM, so each test class should use a bucket of its own.
   */
  public static Map<String, String> of(S3Server server) {
    Map<String, String> conf = new TreeMap<>();
    conf.put("fs.s3a.endpoint", server.endpoint().toString());
    conf.put("fs.s3a.endpoint.region", "us-east-1");
    conf.put("fs.s3a.path.style.access", "true");
    conf.put("fs.s3a.connection.ssl.enabled", "false");
    conf.put(
        "fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
    conf.put("fs.s3a.access.key", server.accessKey());
    conf.put("fs.s3a.secret.key", server.secretKey());
    conf.put("fs.s3a.attempts.maximum", "3");
    conf.put("fs.s3a.retry.limit", "3");
    return conf;
  }

  /**
   * {@link #of} and {@code fs.s3.impl} (with its {@code AbstractFileSystem}) set to S3A, so {@code
   * s3://<bucket>/...} paths reach the server through S3A too, as a cluster's {@code core-site.xml}
   * maps them (see {@code docker/hadoop-conf/core-site.xml}).
   */
  public static Map<String, String> withS3Scheme(S3Server server) {
    Map<String, String> conf = of(server);
    conf.put("fs.s3.impl", "org.apache.hadoop.fs.s3a.S3AFileSystem");
    conf.put("fs.AbstractFileSystem.s3.impl", "org.apache.hadoop.fs.s3a.S3A");
    return conf;
  }

  /** The {@code s3a://} URI string of {@code path} in the server's bucket. */
  public static String uri(S3Server server, String path) {
    return "s3a://" + server.bucket() + "/" + (path.startsWith("/") ? path.substring(1) : path);
  }
}
