package io.lakestream.connectors.autoloader.notification;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.autoloader.discovery.DiscoveredFile;
import io.lakestream.connectors.autoloader.discovery.FileLister;
import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.SqsClientBuilder;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.ReceiveMessageRequest;

/**
 * The SQS queue S3 sends the input bucket's event notifications to, seen as a source of new files
 * under the input path. {@link #receive} returns the files that messages announce, relative to the
 * input path; messages stay in the queue (hidden for the visibility timeout) until {@link #delete}
 * is called with their receipt handles, so a consumer that dies before deleting gets them again.
 *
 * <p>Files outside the input path, hidden files ({@code _x}, {@code .x}) and messages that are not
 * S3 events are skipped with a debug log; their messages are returned for deletion like the others.
 * Failures of SQS calls are thrown as {@link IOException} naming the queue, never the credentials.
 */
@Internal
public final class S3EventQueue implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(S3EventQueue.class);

  /** SQS returns at most 10 messages per ReceiveMessage call. */
  private static final int MAX_PER_CALL = 10;

  private final NotificationSettings settings;
  private final SqsClient sqs;
  private final String bucket;
  private final String prefix;

  /**
   * A page of notifications.
   *
   * @param files new files under the input path, in message order (may repeat a key)
   * @param receiptHandles every received message's handle, to delete once its files are safe
   * @param calls ReceiveMessage calls made
   * @param more whether the queue likely holds more (the last call returned a full batch)
   */
  public record Page(
      List<DiscoveredFile> files, List<String> receiptHandles, int calls, boolean more) {}

  /**
   * @param inputPath the Auto Loader input path, {@code s3a://bucket/prefix} (or s3://)
   */
  public S3EventQueue(NotificationSettings settings, String inputPath) {
    this.settings = settings;
    URI root = URI.create(inputPath);
    this.bucket = root.getHost();
    String path = root.getPath() == null ? "" : root.getPath().replaceAll("^/+|/+$", "");
    this.prefix = path.isEmpty() ? "" : path + "/";
    AwsCredentialsProvider credentials =
        settings.accessKey() != null
            ? StaticCredentialsProvider.create(
                AwsBasicCredentials.create(settings.accessKey(), settings.secretKey()))
            : DefaultCredentialsProvider.builder().build();
    SqsClientBuilder builder =
        SqsClient.builder()
            .httpClientBuilder(UrlConnectionHttpClient.builder())
            .region(Region.of(settings.region()))
            .credentialsProvider(credentials);
    if (settings.endpoint() != null) {
      builder.endpointOverride(URI.create(settings.endpoint()));
    }
    this.sqs = builder.build();
  }

  /**
   * Receives up to {@code maxMessages} messages (in calls of at most 10), stopping at the first
   * call that returns fewer than 10.
   *
   * @param waitSeconds long-poll time of the first call (later calls do not wait)
   * @throws IOException if SQS cannot be called
   */
  public Page receive(int maxMessages, int waitSeconds) throws IOException {
    List<DiscoveredFile> files = new ArrayList<>();
    List<String> handles = new ArrayList<>();
    int calls = 0;
    boolean more = true;
    try {
      while (more && handles.size() < maxMessages) {
        ReceiveMessageRequest.Builder request =
            ReceiveMessageRequest.builder()
                .queueUrl(settings.queueUrl())
                .maxNumberOfMessages(Math.min(MAX_PER_CALL, maxMessages - handles.size()))
                .waitTimeSeconds(calls == 0 ? waitSeconds : 0);
        if (settings.visibilityTimeoutSeconds() > 0) {
          request.visibilityTimeout(settings.visibilityTimeoutSeconds());
        }
        List<Message> messages = sqs.receiveMessage(request.build()).messages();
        calls++;
        more = messages.size() == MAX_PER_CALL;
        for (Message message : messages) {
          handles.add(message.receiptHandle());
          files.addAll(filesOf(message));
        }
      }
    } catch (SdkException e) {
      throw new IOException(
          "Could not receive from the Auto Loader notification queue "
              + settings.queueUrl()
              + " (cloudFiles.queueUrl): "
              + e.getMessage(),
          e);
    }
    return new Page(files, handles, calls, more);
  }

  /**
   * SQS's approximate number of messages in the queue that are visible (not received and hidden),
   * progress's {@code approximateQueueSize}; -1 when SQS cannot tell now (logged).
   */
  public long approximateSize() {
    try {
      String visible =
          sqs.getQueueAttributes(
                  b ->
                      b.queueUrl(settings.queueUrl())
                          .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
              .attributes()
              .get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES);
      return visible == null ? -1 : Long.parseLong(visible);
    } catch (SdkException | NumberFormatException e) {
      LOG.debug("Could not read the size of {}: {}", settings.queueUrl(), e.toString());
      return -1;
    }
  }

  private List<DiscoveredFile> filesOf(Message message) {
    List<S3EventMessage.ObjectCreated> created;
    try {
      created = S3EventMessage.parse(message.body());
    } catch (IllegalArgumentException e) {
      LOG.warn(
          "Auto Loader dropped message {} of {}: not an S3 event notification ({})",
          message.messageId(),
          settings.queueUrl(),
          e.getMessage());
      return List.of();
    }
    List<DiscoveredFile> files = new ArrayList<>();
    for (S3EventMessage.ObjectCreated object : created) {
      String relative = relativeKey(object.bucket(), object.key());
      if (relative == null) {
        LOG.debug(
            "Auto Loader skipped s3://{}/{}: not a file under the input path s3://{}/{}",
            object.bucket(),
            object.key(),
            bucket,
            prefix);
        continue;
      }
      files.add(new DiscoveredFile(relative, object.size(), object.eventTimeMillis()));
    }
    return files;
  }

  /** The key relative to the input path, or null for an object outside it or a hidden one. */
  String relativeKey(String objectBucket, String key) {
    if (!bucket.equals(objectBucket) || !key.startsWith(prefix)) {
      return null;
    }
    String relative = key.substring(prefix.length());
    if (relative.isEmpty() || relative.endsWith("/") || FileLister.hidden(relative)) {
      return null;
    }
    return relative;
  }

  /**
   * Deletes messages by receipt handle, in batches of 10.
   *
   * @return how many were deleted (a handle whose visibility timeout expired fails to delete: its
   *     message comes again and the ledger drops its files)
   * @throws IOException if SQS cannot be called
   */
  public int delete(List<String> receiptHandles) throws IOException {
    int deleted = 0;
    try {
      for (int from = 0; from < receiptHandles.size(); from += MAX_PER_CALL) {
        List<DeleteMessageBatchRequestEntry> entries = new ArrayList<>();
        List<String> batch =
            receiptHandles.subList(from, Math.min(receiptHandles.size(), from + MAX_PER_CALL));
        for (int i = 0; i < batch.size(); i++) {
          entries.add(
              DeleteMessageBatchRequestEntry.builder()
                  .id(Integer.toString(i))
                  .receiptHandle(batch.get(i))
                  .build());
        }
        DeleteMessageBatchResponse response =
            sqs.deleteMessageBatch(
                DeleteMessageBatchRequest.builder()
                    .queueUrl(settings.queueUrl())
                    .entries(entries)
                    .build());
        deleted += response.successful().size();
        if (!response.failed().isEmpty()) {
          LOG.warn(
              "Auto Loader could not delete {} messages from {}: {}",
              response.failed().size(),
              settings.queueUrl(),
              response.failed().get(0).message());
        }
      }
    } catch (SdkException e) {
      throw new IOException(
          "Could not delete from the Auto Loader notification queue "
              + settings.queueUrl()
              + ": "
              + e.getMessage(),
          e);
    }
    return deleted;
  }

  @Override
  public void close() {
    sqs.close();
  }
}
