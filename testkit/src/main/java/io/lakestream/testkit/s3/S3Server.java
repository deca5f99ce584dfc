package io.lakestream.testkit.s3;

import io.lakestream.testkit.FreePort;
import io.lakestream.testkit.TempDirectory;
import io.lakestream.testkit.flink.S3FileSystemPlugin;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.flink.configuration.Configuration;
import org.gaul.s3proxy.BlobStores;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A real S3-API server (S3Proxy, in this JVM) on 127.0.0.1 on a port picked at start, storing
 * objects as files in a fresh temporary directory, with one bucket created at start.
 *
 * <p>Guarantees:
 *
 * <ul>
 *   <li>Path-style requests to {@link #endpoint()} over plain HTTP, anonymous or signed with any
 *       key (the server does not check signatures, so {@link #accessKey()}/{@link #secretKey()} are
 *       merely the values clients are configured with).
 *   <li>Conditional writes behave as on AWS S3: a PUT with {@code If-None-Match: *} on an existing
 *       key fails with HTTP 412.
 *   <li>{@link #flinkConfiguration()} holds what {@code flink-s3-fs-hadoop} needs to use the server
 *       for {@code s3://} paths.
 *   <li>{@link #close()} stops the server and deletes the directory.
 *   <li>{@link #stopServing()} and {@link #resumeServing()} make an outage: connections are refused
 *       until the server serves again, on the same port and with the same objects.
 * </ul>
 *
 * <p>Starting a server sets the system property {@code
 * aws.java.v1.disableDeprecationAnnouncement=true} (unless set) so that the AWS SDK v1 inside
 * {@code flink-s3-fs-hadoop} does not print its deprecation notice into the test output.
 *
 * <p>Failures: {@link #start()} throws {@link IllegalStateException} when the server does not
 * start; {@link #keys(String)} and {@link #read(String)} throw the S3Proxy blob store's exceptions
 * (for example when a key does not exist).
 */
public final class S3Server implements AutoCloseable {

  /** The bucket {@link #start()} creates. */
  public static final String DEFAULT_BUCKET = "lakestream-test";

  /** The access key clients are configured with. */
  public static final String ACCESS_KEY = "lakestream-access-key";

  /** The secret key clients are configured with. */
  public static final String SECRET_KEY = "lakestream-secret-key";

  private static final Logger LOG = LoggerFactory.getLogger(S3Server.class);
  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
  private static final String SDK_V1_NOTICE = "aws.java.v1.disableDeprecationAnnouncement";

  private final TempDirectory directory;
  private final BlobStore blobStore;
  private S3Proxy proxy;
  private final URI endpoint;
  private final String bucket;
  private boolean closed;

  private S3Server(
      TempDirectory directory, BlobStore blobStore, S3Proxy proxy, URI endpoint, String bucket) {
    this.directory = directory;
    this.blobStore = blobStore;
    this.proxy = proxy;
    this.endpoint = endpoint;
    this.bucket = bucket;
  }

  /**
   * Starts a server with the bucket {@value #DEFAULT_BUCKET}.
   *
   * @throws IllegalStateException if the server does not start
   */
  public static S3Server start() {
    return start(DEFAULT_BUCKET);
  }

  /**
   * Starts a server with the given bucket.
   *
   * @throws IllegalStateException if the server does not start or the bucket name is invalid
   */
  public static S3Server start(String bucket) {
    // flink-s3-fs-hadoop bundles AWS SDK v1, which otherwise prints a deprecation notice with a
    // stack trace to stderr when first used.
    if (System.getProperty(SDK_V1_NOTICE) == null) {
      System.setProperty(SDK_V1_NOTICE, "true");
    }
    TempDirectory directory = TempDirectory.create("lakestream-s3-");
    BlobStore blobStore = null;
    S3Proxy proxy = null;
    try {
      Properties properties = new Properties();
      properties.setProperty("jclouds.filesystem.basedir", directory.path().toString());
      blobStore = new CompleteObjectsOnly(BlobStores.create("filesystem-nio2", properties));
      proxy = serve(blobStore, 0);
      URI endpoint = URI.create("http://" + FreePort.LOOPBACK + ":" + proxy.getPort());
      blobStore.createContainer(bucket);
      LOG.info("S3 server ready at {} with bucket {} (dir {})", endpoint, bucket, directory);
      return new S3Server(directory, blobStore, proxy, endpoint, bucket);
    } catch (Exception | LinkageError e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      IllegalStateException failure =
          new IllegalStateException("S3 server (S3Proxy) failed to start: " + e, e);
      stopQuietly(proxy, blobStore, failure);
      try {
        directory.close();
      } catch (RuntimeException cleanup) {
        failure.addSuppressed(cleanup);
      }
      throw failure;
    }
  }

  /** The server's base URL, {@code http://127.0.0.1:<port>} (no trailing slash). */
  public URI endpoint() {
    return endpoint;
  }

  /** The bucket created at start. */
  public String bucket() {
    return bucket;
  }

  /** The access key clients should use. */
  public String accessKey() {
    return ACCESS_KEY;
  }

  /** The secret key clients should use. */
  public String secretKey() {
    return SECRET_KEY;
  }

  /**
   * The {@code s3://} URI of a path in the bucket, e.g. {@code uri("checkpoints")} is {@code
   * s3://lakestream-test/checkpoints}. A leading '/' in {@code path} is ignored.
   */
  public URI uri(String path) {
    String relative = path.startsWith("/") ? path.substring(1) : path;
    return URI.create("s3://" + bucket + "/" + relative);
  }

  /**
   * Flink configuration for {@code flink-s3-fs-hadoop} (the {@code s3://} and {@code s3a://}
   * schemes) pointing at this server: endpoint, path-style access, keys, plain HTTP, directory
   * markers kept, and small retry limits so a mistake fails fast. Pass it to {@link
   * S3FileSystemPlugin#initializeFileSystems} (a {@code FlinkMiniCluster} built with it does that)
   * before using such paths.
   */
  public Configuration flinkConfiguration() {
    Configuration config = new Configuration();
    config.setString("s3.endpoint", endpoint.toString());
    config.setString("s3.path.style.access", "true");
    config.setString("s3.access-key", ACCESS_KEY);
    config.setString("s3.secret-key", SECRET_KEY);
    config.setString("s3.connection.ssl.enabled", "false");
    config.setString("s3.directory.marker.retention", "keep");
    config.setString("s3.endpoint.region", "us-east-1");
    // Only the fixed keys: the default chain would also try the EC2 instance metadata endpoint.
    config.setString(
        "s3.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
    config.setString("s3.attempts.maximum", "3");
    config.setString("s3.retry.limit", "3");
    return config;
  }

  /**
   * Makes {@code s3://} paths in this JVM resolve to this server: {@link
   * S3FileSystemPlugin#initializeFileSystems} with {@link #flinkConfiguration()}.
   */
  public void initializeFlinkFileSystems() {
    S3FileSystemPlugin.initializeFileSystems(flinkConfiguration());
  }

  /** The directory the server stores buckets and objects in. */
  public java.nio.file.Path storageDirectory() {
    return directory.path();
  }

  /**
   * The keys of the objects in the bucket whose key starts with {@code prefix}, in lexical order.
   */
  public List<String> keys(String prefix) {
    List<String> keys = new ArrayList<>();
    String token = null;
    do {
      ListObjectsV2Request.Builder request =
          ListObjectsV2Request.builder().bucket(bucket).prefix(prefix).maxKeys(1000);
      if (token != null) {
        request.continuationToken(token);
      }
      ListObjectsV2Response response = blobStore.list(request.build());
      for (S3Object object : response.contents()) {
        keys.add(object.key());
      }
      token = Boolean.TRUE.equals(response.isTruncated()) ? response.nextContinuationToken() : null;
    } while (token != null);
    return keys;
  }

  /**
   * The content of an object in the bucket.
   *
   * @throws UncheckedIOException if it cannot be read
   */
  public byte[] read(String key) {
    try (InputStream in = blobStore.getBlob(bucket, key)) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read s3://" + bucket + "/" + key, e);
    }
  }

  /**
   * Stops the server and deletes its directory. Idempotent.
   *
   * @throws IllegalStateException if the server cannot be stopped
   * @throws UncheckedIOException if the directory cannot be deleted
   */
  /**
   * Stops serving: from now on connections to {@link #endpoint()} are refused, as during an outage.
   * The objects stay.
   *
   * @throws IllegalStateException if the server does not stop
   */
  public synchronized void stopServing() {
    try {
      proxy.stop();
    } catch (Exception e) {
      throw new IllegalStateException("cannot stop S3 server " + endpoint, e);
    }
    LOG.info("S3 server at {} stopped serving (outage)", endpoint);
  }

  /**
   * Serves again after {@link #stopServing()}, on the same port and with the same objects.
   *
   * @throws IllegalStateException if the server does not start again
   */
  public synchronized void resumeServing() {
    try {
      proxy = serve(blobStore, endpoint.getPort());
    } catch (Exception e) {
      throw new IllegalStateException("cannot restart S3 server " + endpoint, e);
    }
    LOG.info("S3 server at {} serves again", endpoint);
  }

  /** An S3Proxy over {@code blobStore} on {@code port} (0: a free one), started. */
  private static S3Proxy serve(BlobStore blobStore, int port) throws Exception {
    S3Proxy proxy =
        S3Proxy.builder()
            .blobStore(blobStore)
            .endpoint(URI.create("http://" + FreePort.LOOPBACK + ":" + port))
            .awsAuthentication(AuthenticationType.NONE, null, null)
            .ignoreUnknownHeaders(true)
            .stopTimeout(0)
            .build();
    proxy.start();
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (!"STARTED".equals(proxy.getState())) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "S3Proxy not started after " + START_TIMEOUT + " (state " + proxy.getState() + ")");
      }
      Thread.sleep(10);
    }
    return proxy;
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    IllegalStateException failure = new IllegalStateException("cannot stop S3 server " + endpoint);
    stopQuietly(proxy, blobStore, failure);
    directory.close();
    if (failure.getSuppressed().length > 0) {
      throw failure;
    }
  }

  @Override
  public String toString() {
    return "S3Server[" + endpoint + ", bucket " + bucket + "]";
  }

  private static void stopQuietly(S3Proxy proxy, BlobStore blobStore, Exception failure) {
    if (proxy != null) {
      try {
        proxy.stop();
      } catch (Exception e) {
        failure.addSuppressed(e);
      }
    }
    if (blobStore != null) {
      try {
        blobStore.close();
      } catch (Exception e) {
        failure.addSuppressed(e);
      }
    }
  }
}
