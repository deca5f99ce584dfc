package io.lakestream.bench.autoloader;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.testkit.s3.S3Server;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The bench's sorted key index answers ListObjectsV2 as s3proxy does for the same objects: the same
 * pages (keys, common prefixes, size, ETag, truncation) for flat and delimited listings, with
 * start-after, small pages and continuation tokens, through the real AWS SDK on both sides; only
 * the time a page takes differs. A listing of the root's parent is still s3proxy's.
 */
class SortedKeyIndexTest {
  private static S3Server s3;
  private static S3RequestCounter proxy;
  private static S3Client direct;
  private static S3Client indexed;
  private static LandingFiles landing;

  @BeforeAll
  static void writeFiles() throws Exception {
    s3 = S3Server.start("sorted-key-index");
    proxy = new S3RequestCounter(s3.endpoint(), new SortedKeyIndex(s3.bucket(), "landing/"));
    landing = new LandingFiles(s3.storageDirectory(), s3.bucket(), "landing", 480, proxy.index());
    landing.write(0, 530); // 480 in 24 hour directories, then 50 in December
    direct = client(s3.endpoint());
    indexed = client(proxy.endpoint());
  }

  @AfterAll
  static void stop() throws Exception {
    direct.close();
    indexed.close();
    landing.close();
    proxy.close();
    s3.close();
  }

  @Test
  void flatListingsMatchS3proxy() {
    assertSamePages(r -> r.prefix("landing/"));
    assertSamePages(r -> r.prefix("landing/").maxKeys(7));
    assertSamePages(r -> r.prefix("landing/").startAfter(landing("date=2026-11-01/hour=05/")));
    assertSamePages(r -> r.prefix("landing/").startAfter("landing/" + landing.key(479)));
    assertSamePages(r -> r.prefix("landing/date=2026-11-01/hour=13/").maxKeys(3));
    assertSamePages(r -> r.prefix("landing/nothing-here/"));
  }

  @Test
  void delimitedListingsMatchS3proxy() {
    assertSamePages(r -> r.prefix("landing/").delimiter("/"));
    assertSamePages(r -> r.prefix("landing/date=2026-11-01/").delimiter("/").maxKeys(5));
    assertSamePages(r -> r.prefix("landing/date=2026-11-01/hour=02/").delimiter("/").maxKeys(9));
    assertSamePages(r -> r.prefix("landing/date=2026-1").delimiter("/").maxKeys(1));
  }

  @Test
  void listingsOutsideTheRootGoToS3proxy() {
    long before = proxy.lists();
    long answered = proxy.index().pagesAnswered();
    ListObjectsV2Response bucketRoot =
        indexed.listObjectsV2(r -> r.bucket(s3.bucket()).delimiter("/"));
    assertThat(bucketRoot.commonPrefixes()).extracting(CommonPrefix::prefix).contains("landing/");
    assertThat(proxy.lists()).isEqualTo(before + 1);
    assertThat(proxy.index().pagesAnswered()).isEqualTo(answered);
  }

  private static String landing(String relative) {
    return "landing/" + relative;
  }

  private static void assertSamePages(UnaryOperator<ListObjectsV2Request.Builder> request) {
    long answered = proxy.index().pagesAnswered();
    List<String> fromIndex = pages(indexed, request);
    assertThat(proxy.index().pagesAnswered() - answered).isEqualTo(fromIndex.size());
    assertThat(fromIndex).isEqualTo(pages(direct, request)).isNotEmpty();
  }

  /** Each page as its keys (with size and ETag), common prefixes and truncation. */
  private static List<String> pages(
      S3Client client, UnaryOperator<ListObjectsV2Request.Builder> request) {
    List<String> pages = new ArrayList<>();
    String token = null;
    do {
      ListObjectsV2Request.Builder builder = request.apply(ListObjectsV2Request.builder());
      ListObjectsV2Response page =
          client.listObjectsV2(builder.bucket(s3.bucket()).continuationToken(token).build());
      List<String> items = new ArrayList<>();
      for (S3Object o : page.contents()) {
        items.add(o.key() + " " + o.size() + " " + o.eTag());
      }
      for (CommonPrefix p : page.commonPrefixes()) {
        items.add("prefix " + p.prefix());
      }
      pages.add(items + " truncated=" + page.isTruncated() + " count=" + page.keyCount());
      token = page.nextContinuationToken();
    } while (token != null);
    return pages;
  }

  private static S3Client client(URI endpoint) {
    return S3Client.builder()
        .endpointOverride(endpoint)
        .region(Region.US_EAST_1)
        .forcePathStyle(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(s3.accessKey(), s3.secretKey())))
        .httpClient(ApacheHttpClient.builder().build())
        .build();
  }
}
