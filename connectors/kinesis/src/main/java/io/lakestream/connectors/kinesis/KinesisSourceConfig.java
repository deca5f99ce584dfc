package io.lakestream.connectors.kinesis;

import io.lakestream.api.annotation.PublicEvolving;
import java.io.Serializable;
import java.net.URI;
import java.time.Duration;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.Protocol;
import software.amazon.awssdk.http.ProtocolNegotiation;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.http.nio.netty.SdkEventLoopGroup;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.kinesis.KinesisAsyncClient;
import software.amazon.awssdk.services.kinesis.KinesisAsyncClientBuilder;
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
  private final FanOut fanOut;

  /**
   * Enhanced fan-out settings (option consumerMode=efo); {@code consumerName} may be null until the
   * query id is known ({@link #withDefaultConsumerName}).
   *
   * @param consumerName the name of the consumer to register (without the lakestream_ prefix)
   * @param deregister deregister a consumer this source registered when the query stops
   * @param registeredId an existing consumer to use (name or ARN), or null
   * @param registeredIdIsArn whether {@code registeredId} is an ARN
   */
  @PublicEvolving
  public record FanOut(
      String consumerName, boolean deregister, String registeredId, boolean registeredIdIsArn)
      implements Serializable {
    /** The prefix of the names of the consumers lakestream registers. */
    public static final String PREFIX = "lakestream_";
  }

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
      String secretKey,
      FanOut fanOut) {
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
    this.fanOut = fanOut;
  }

  /** The enhanced fan-out settings, or null in polling mode. */
  public FanOut fanOut() {
    return fanOut;
  }

  /**
   * This config with consumer name {@code queryId} when efo is on and option consumerName was not
   * given (Databricks' default: the query id).
   */
  public KinesisSourceConfig withDefaultConsumerName(String queryId) {
    if (fanOut == null || fanOut.consumerName() != null || queryId == null) {
      return this;
    }
    return new KinesisSourceConfig(
        streamName,
        region,
        initialPosition,
        initialTimestampMillis,
        maxRecordsPerFetch,
        shardFetchIntervalMillis,
        minFetchPeriodMillis,
        maxRecordsPerEpoch,
        endpoint,
        accessKey,
        secretKey,
        new FanOut(
            queryId, fanOut.deregister(), fanOut.registeredId(), fanOut.registeredIdIsArn()));
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

  /**
   * A new asynchronous client over netty with HTTP/2 (negotiated with ALPN), as SubscribeToShard
   * needs, on {@code eventLoops} (which the caller shuts down: the client's own would make its
   * close wait 2 seconds); the caller closes it. TLS trusts the JVM's trust store
   * (javax.net.ssl.trustStore).
   */
  public KinesisAsyncClient asyncClient(SdkEventLoopGroup eventLoops) {
    KinesisAsyncClientBuilder builder =
        KinesisAsyncClient.builder()
            .region(Region.of(region))
            .credentialsProvider(credentials())
            .httpClientBuilder(
                NettyNioAsyncHttpClient.builder()
                    .eventLoopGroup(eventLoops)
                    .protocol(Protocol.HTTP2)
                    .protocolNegotiation(ProtocolNegotiation.ALPN)
                    .connectionTimeout(Duration.ofSeconds(10))
                    .readTimeout(Duration.ofSeconds(60))
                    .maxConcurrency(100));
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
