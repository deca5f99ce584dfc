package io.lakestream.testkit.kinesis;

import java.net.URI;
import javax.net.ssl.TrustManager;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.kinesis.KinesisClient;

/**
 * The Kinesis client the test peers hand out: region us-east-1, access key and secret {@code test}
 * (the peers check neither), the JDK's HTTP client.
 */
final class KinesisTestClient {
  private KinesisTestClient() {}

  /**
   * A client of {@code endpoint}; {@code trust} (may be null: the JVM's) decides which server
   * certificates it accepts.
   */
  static KinesisClient create(URI endpoint, TrustManager[] trust) {
    UrlConnectionHttpClient.Builder http = UrlConnectionHttpClient.builder();
    if (trust != null) {
      http.tlsTrustManagersProvider(() -> trust);
    }
    return KinesisClient.builder()
        .endpointOverride(endpoint)
        .region(Region.US_EAST_1)
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
        .httpClientBuilder(http)
        .build();
  }
}
