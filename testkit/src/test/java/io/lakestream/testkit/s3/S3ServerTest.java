package io.lakestream.testkit.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class S3ServerTest {

  @RegisterExtension static final S3ServerExtension S3 = new S3ServerExtension();

  private final HttpClient http = HttpClient.newHttpClient();

  /**
   * Delta commits on S3 rely on conditional writes: {@code PUT} with {@code If-None-Match: *} must
   * fail with 412 Precondition Failed when the key exists, and leave the object unchanged.
   */
  @Test
  void conditionalPutOnAnExistingKeyIsRejectedWith412() throws Exception {
    URI object =
        URI.create(S3.endpoint() + "/" + S3.bucket() + "/_delta_log/00000000000000000000.json");

    assertThat(put(object, "first", true).statusCode()).isEqualTo(200);
    HttpResponse<String> second = put(object, "second", true);
    assertThat(second.statusCode()).isEqualTo(412);
    assertThat(second.body()).contains("PreconditionFailed");

    HttpResponse<String> get =
        http.send(
            HttpRequest.newBuilder(object).GET().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(get.statusCode()).isEqualTo(200);
    assertThat(get.body()).isEqualTo("first");

    // an unconditional PUT still overwrites
    assertThat(put(object, "third", false).statusCode()).isEqualTo(200);
    assertThat(
            new String(
                S3.server().read("_delta_log/00000000000000000000.json"), StandardCharsets.UTF_8))
        .isEqualTo("third");
  }

  @Test
  void flinkS3FileSystemWritesListsAndReadsObjects() throws Exception {
    S3.initializeFlinkFileSystems();
    Path file = new Path(S3.uri("flink-fs/dir/hello.txt"));
    FileSystem fs = file.getFileSystem();
    try (FSDataOutputStream out = fs.create(file, FileSystem.WriteMode.NO_OVERWRITE)) {
      out.write("hello s3".getBytes(StandardCharsets.UTF_8));
    }

    assertThat(fs.exists(file)).isTrue();
    assertThat(fs.listStatus(new Path(S3.uri("flink-fs/dir")))).hasSize(1);
    try (FSDataInputStream in = fs.open(file)) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("hello s3");
    }
    assertThat(S3.keys("flink-fs/")).contains("flink-fs/dir/hello.txt");
  }

  private HttpResponse<String> put(URI object, String body, boolean ifNoneMatch) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(object).PUT(HttpRequest.BodyPublishers.ofString(body));
    if (ifNoneMatch) {
      request.header("If-None-Match", "*");
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
