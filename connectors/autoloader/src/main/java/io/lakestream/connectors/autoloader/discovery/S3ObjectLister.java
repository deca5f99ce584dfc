package io.lakestream.connectors.autoloader.discovery;

import io.lakestream.api.annotation.Internal;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.s3a.S3AFileSystem;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Start-after listing on S3 through S3A's own client (its endpoint, credentials and retries): one
 * flat {@code ListObjectsV2} request per 1,000 keys, starting after the last seen key, so an
 * incremental listing costs one call per 1,000 new files whatever the directory layout. Directory
 * markers and hidden keys are skipped.
 */
@Internal
public final class S3ObjectLister implements FileLister {
  private static final int PAGE = 1_000;

  private final S3AFileSystem fs;
  private final S3Client s3;
  private final String bucket;
  private final String prefix;
  private final URI root;

  public S3ObjectLister(S3AFileSystem fs, URI root) {
    this.fs = fs;
    this.root = root;
    this.s3 = fs.getS3AInternals().getAmazonS3Client("Auto Loader file listing");
    this.bucket = root.getHost();
    String path = root.getPath() == null ? "" : root.getPath().replaceAll("^/+|/+$", "");
    this.prefix = path.isEmpty() ? "" : path + "/";
  }

  @Override
  public FileListing listAfter(String startAfter, int maxFiles) throws IOException {
    List<DiscoveredFile> files = new ArrayList<>();
    int calls = 0;
    String token = null;
    try {
      while (true) {
        ListObjectsV2Request.Builder request =
            ListObjectsV2Request.builder().bucket(bucket).prefix(prefix).maxKeys(PAGE);
        if (token != null) {
          request.continuationToken(token);
        } else if (!startAfter.isEmpty()) {
          request.startAfter(prefix + startAfter);
        }
        ListObjectsV2Response response = s3.listObjectsV2(request.build());
        calls++;
        for (S3Object object : response.contents()) {
          String key = object.key().substring(prefix.length());
          if (key.isEmpty() || key.endsWith("/") || FileLister.hidden(key)) {
            continue;
          }
          if (files.size() >= maxFiles) {
            return new FileListing(files, true, calls);
          }
          files.add(new DiscoveredFile(key, object.size(), object.lastModified().toEpochMilli()));
        }
        if (!Boolean.TRUE.equals(response.isTruncated())) {
          return new FileListing(files, false, calls);
        }
        if (files.size() >= maxFiles) {
          return new FileListing(files, true, calls);
        }
        token = response.nextContinuationToken();
      }
    } catch (SdkException e) {
      throw new IOException("Could not list the Auto Loader input path " + root + ": " + e, e);
    }
  }

  @Override
  public void close() throws IOException {
    fs.close();
  }
}
