package io.lakestream.testkit.s3;

import java.util.List;
import java.util.regex.Pattern;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.blobstore.ForwardingBlobStore;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Lists only complete objects, as S3 does. s3proxy's file system backend writes an object to a
 * sibling file named {@code <key>-<random UUID>} and moves it into place when the upload ends; a
 * listing taken in between showed that temporary file as an object, which then vanished before a
 * reader could open it (Auto Loader tests failed with {@code FileNotFoundException} on {@code
 * part-7.json-e06db836-...}).
 */
final class CompleteObjectsOnly extends ForwardingBlobStore {
  private static final Pattern UPLOAD_IN_PROGRESS =
      Pattern.compile("(^|.*/)[^/]+-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$");

  CompleteObjectsOnly(BlobStore delegate) {
    super(delegate);
  }

  @Override
  public ListObjectsV2Response list(ListObjectsV2Request request) {
    ListObjectsV2Response response = super.list(request);
    List<S3Object> complete =
        response.contents().stream()
            .filter(o -> !UPLOAD_IN_PROGRESS.matcher(o.key()).matches())
            .toList();
    if (complete.size() == response.contents().size()) {
      return response;
    }
    return response.toBuilder()
        .contents(complete)
        .keyCount(complete.size() + response.commonPrefixes().size())
        .build();
  }
}
