package io.lakestream.connectors.autoloader.source;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.autoloader.discovery.DiscoveredFile;
import io.lakestream.connectors.autoloader.discovery.FileLister;
import io.lakestream.connectors.autoloader.notification.NotificationResources;
import io.lakestream.connectors.autoloader.notification.NotificationSettings;
import io.lakestream.connectors.autoloader.notification.S3EventQueue;
import io.lakestream.connectors.autoloader.source.enumerator.DiscoverySettings;
import io.lakestream.connectors.autoloader.source.enumerator.DiscoveryState;
import io.lakestream.connectors.autoloader.source.enumerator.DiscoveryStateSerializer;
import io.lakestream.connectors.autoloader.source.enumerator.FileDiscoveryEnumerator;
import io.lakestream.connectors.autoloader.source.reader.FileBatchReader;
import io.lakestream.connectors.autoloader.source.split.FileBatchSplit;
import io.lakestream.connectors.autoloader.source.split.FileBatchSplitSerializer;
import io.lakestream.connectors.source.EpochPositions;
import io.lakestream.state.query.DescribedSource;
import io.lakestream.state.query.QueryContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * The discovery half of Auto Loader (FLIP-27): lists the input directory and emits each new file as
 * a {@link DiscoveredFile}; the file ledger downstream reads them. See {@link
 * FileDiscoveryEnumerator} for listing and rate limits. Built by {@code AutoLoaderBuilder}.
 */
@Internal
public final class FileDiscoverySource
    implements Source<DiscoveredFile, FileBatchSplit, DiscoveryState>,
        ResultTypeQueryable<DiscoveredFile>,
        DescribedSource {
  private static final long serialVersionUID = 1L;

  private final String name;
  private final String inputPath;
  private final TreeMap<String, String> hadoopConf;
  private final DiscoverySettings settings;
  private final boolean includeExistingFiles;
  private final long startedAtMillis;
  private final QueryContext query;
  private final NotificationSettings notifications;

  /**
   * @param settings listing and limits; its availableNow start is replaced from {@code query}
   * @param startedAtMillis when the query started: the availableNow horizon, and the first start's
   *     cut-off without {@code includeExistingFiles}
   */
  public FileDiscoverySource(
      String name,
      String inputPath,
      Map<String, String> hadoopConf,
      DiscoverySettings settings,
      boolean includeExistingFiles,
      long startedAtMillis,
      QueryContext query) {
    this(name, inputPath, hadoopConf, settings, includeExistingFiles, startedAtMillis, query, null);
  }

  /**
   * As the other constructor, in file notification mode when {@code notifications} is given (an
   * availableNow run lists instead: it must see an end).
   */
  public FileDiscoverySource(
      String name,
      String inputPath,
      Map<String, String> hadoopConf,
      DiscoverySettings settings,
      boolean includeExistingFiles,
      long startedAtMillis,
      QueryContext query,
      NotificationSettings notifications) {
    this.notifications = notifications;
    this.name = name;
    this.inputPath = inputPath;
    this.hadoopConf = new TreeMap<>(hadoopConf);
    this.settings = settings;
    this.includeExistingFiles = includeExistingFiles;
    this.startedAtMillis = startedAtMillis;
    this.query = query;
  }

  /**
   * This source in a job that checkpoints every {@code checkpointIntervalMillis} (not positive = no
   * checkpoints): a new listing or poll starts at most once per half of it, so the checkpoints
   * Flink queued during a long epoch, then runs back to back, do not list once each.
   */
  public FileDiscoverySource forCheckpointInterval(long checkpointIntervalMillis) {
    return new FileDiscoverySource(
        name,
        inputPath,
        hadoopConf,
        settings.forCheckpointInterval(checkpointIntervalMillis),
        includeExistingFiles,
        startedAtMillis,
        query,
        notifications);
  }

  @Override
  public Boundedness getBoundedness() {
    return Boundedness.CONTINUOUS_UNBOUNDED;
  }

  @Override
  public SourceReader<DiscoveredFile, FileBatchSplit> createReader(SourceReaderContext context) {
    return new FileBatchReader(context);
  }

  @Override
  public SplitEnumerator<FileBatchSplit, DiscoveryState> createEnumerator(
      SplitEnumeratorContext<FileBatchSplit> context) {
    return restoreEnumerator(
        context, DiscoveryState.initial(includeExistingFiles ? Long.MIN_VALUE : startedAtMillis));
  }

  @Override
  public SplitEnumerator<FileBatchSplit, DiscoveryState> restoreEnumerator(
      SplitEnumeratorContext<FileBatchSplit> context, DiscoveryState checkpoint) {
    boolean availableNow = query != null && query.availableNow();
    DiscoverySettings run =
        new DiscoverySettings(
            settings.maxFilesPerTrigger(),
            settings.maxBytesPerTrigger(),
            settings.ignoreLimits() || (query != null && query.ignoreRateLimits()),
            settings.incrementalListingsPerBackfill(),
            settings.backfillIntervalMillis(),
            settings.maxFileAgeMillis(),
            availableNow ? startedAtMillis : -1,
            settings.pageSize(),
            settings.listingGapMillis());
    FileLister lister;
    try {
      lister = FileLister.open(inputPath, hadoopConf);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Auto Loader could not open the input path " + inputPath + ": " + e.getMessage(), e);
    }
    EpochPositions positions =
        new EpochPositions(
            query, name, p -> p.getOrDefault(FileDiscoveryEnumerator.FILES_ADMITTED, 0L));
    if (notifications == null || availableNow) {
      return FileDiscoveryEnumerator.listing(
          context, checkpoint, run, lister, positions, System::currentTimeMillis);
    }
    return FileDiscoveryEnumerator.notifications(
        context,
        checkpoint,
        run,
        lister,
        new S3EventQueue(queueSettings(), inputPath),
        positions,
        System::currentTimeMillis);
  }

  /** The query the source runs in, or null. */
  public QueryContext query() {
    return query;
  }

  /**
   * The notification settings with their queue: the one given, or the one set up for this query
   * (found again, unchanged, when the query restarts).
   */
  private NotificationSettings queueSettings() {
    if (notifications.queueUrl() != null) {
      return notifications;
    }
    try (NotificationResources resources = new NotificationResources(notifications)) {
      return notifications.withQueueUrl(resources.setUp(query.queryId(), inputPath));
    }
  }

  @Override
  public SimpleVersionedSerializer<FileBatchSplit> getSplitSerializer() {
    return new FileBatchSplitSerializer();
  }

  @Override
  public SimpleVersionedSerializer<DiscoveryState> getEnumeratorCheckpointSerializer() {
    return new DiscoveryStateSerializer();
  }

  @Override
  public TypeInformation<DiscoveredFile> getProducedType() {
    return TypeInformation.of(DiscoveredFile.class);
  }

  @Override
  public String sourceType() {
    return "cloudFiles";
  }

  @Override
  public String sourceTarget() {
    return inputPath;
  }

  @Override
  public List<URI> inputPaths() {
    return List.of(URI.create(inputPath));
  }

  @Override
  public boolean supportsAvailableNow() {
    return true;
  }

  /** Always: maxFilesPerTrigger has a default (1000), as in Spark. */
  @Override
  public boolean limitsEpochs() {
    return true;
  }
}
