package io.lakestream.connectors.kinesis;

import io.lakestream.api.annotation.PublicEvolving;
import java.io.Serializable;
import java.net.URI;
import java.time.Duration;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.KinesisClientBuilder;

/**
 * The validated options of a Kinesis source (see {@link KinesisSourceOptions}); makes the clients.
 * Serializable (it travels in the job graph); {@link #toString()} never shows the secret key.
 */
@PublicEvolving
public final class KinesisSourceConfig implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String streamName;
  private final String region;
  private final String initialPosition;
  private final long initialTimestampMillis;
  private final int maxRecordsPerFetch;
  private final long shardFetchIntervalMillis;
  private final long minFetchPeriodMillis;
  private final long maxRecordsPerEpoch;
  private final String endpoint;
  private final String accessKey;
  private final String secretKey;

  KinesisSourceConfig(
      String streamName,
      String region,
      String initialPosition,
      long initialTimestampMillis,
      int maxRecordsPerFetch,
      long shardFetchIntervalMillis,
      long minFetchPeriodMillis,
      long maxRecordsPerEpoch,
      String endpoint,
      String accessKey,
      String secretKey) {
    this.streamName = streamName;
    this.region = region;
    this.initialPosition = initialPosition;
    this.initialTimestampMillis = initialTimestampMillis;
    this.maxRecordsPerFetch = maxRecordsPerFetch;
    this.shardFetchIntervalMillis = shardFetchIntervalMillis;
    this.minFetchPeriodMillis = minFetchPeriodMillis;
    this.maxRecordsPerEpoch = maxRecordsPerEpoch;
    this.endpoint = endpoint;
    this.accessKey = accessKey;
    this.secretKey = secretKey;
  }

  public String streamName() {
    return streamName;
  }

  public String region() {
    return region;
  }

  /** latest, trim_horizon or at_timestamp. */
  public String initialPosition() {
    return initialPosition;
  }

  /** The instant of at_timestamp, in epoch milliseconds (0 otherwise). */
  public long initialTimestampMillis() {
    return initialTimestampMillis;
  }

  public int maxRecordsPerFetch() {
    return maxRecordsPerFetch;
  }

  public long shardFetchIntervalMillis() {
    return shardFetchIntervalMillis;
  }

  public long minFetchPeriodMillis() {
    return minFetchPeriodMillis;
  }

  /** Records per reader between two checkpoints ({@link Long#MAX_VALUE}: unlimited). */
  public long maxRecordsPerEpoch() {
    return maxRecordsPerEpoch;
  }

  /** A new client; the caller closes it. */
  public KinesisClient client() {
    KinesisClientBuilder builder =
        KinesisClient.builder()
            .region(Region.of(region))
            .credentialsProvider(credentials())
            .httpClientBuilder(
                UrlConnectionHttpClient.builder()
                    .connectionTimeout(Duration.ofSeconds(10))
                    .socketTimeout(Duration.ofSeconds(30)));
    if (endpoint != null) {
      builder.endpointOverride(URI.create(endpoint));
    }
    return builder.build();
  }

  private AwsCredentialsProvider credentials() {
    return accessKey == null
        ? DefaultCredentialsProvider.builder().build()
        : StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey));
  }

  /** The stream, region and endpoint, for messages. */
  public String describe() {
    return "Kinesis stream '"
        + streamName
        + "' in "
        + region
        + (endpoint == null ? "" : " at " + endpoint);
  }

  @Override
  public String toString() {
    return describe() + (accessKey == null ? "" : " (awsAccessKey " + accessKey + ")");
  }
}
