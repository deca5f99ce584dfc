package io.lakestream.testkit.flink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.testkit.FreePort;
import io.lakestream.testkit.OrphanReaper;
import io.lakestream.testkit.TempDirectory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.clusterframework.TaskExecutorProcessSpec;
import org.apache.flink.runtime.clusterframework.TaskExecutorProcessUtils;
import org.apache.flink.runtime.jobmanager.JobManagerProcessSpec;
import org.apache.flink.runtime.jobmanager.JobManagerProcessUtils;
import org.apache.flink.runtime.util.config.memory.ProcessMemoryUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real standalone Flink session cluster: one JobManager JVM ({@code
 * StandaloneSessionClusterEntrypoint}) and N TaskManager JVMs ({@code TaskManagerRunner}), each its
 * own process, started from the Flink jars the build resolves, the way Flink's {@code bin/} scripts
 * start them. Jobs reach it only through Flink's own CLI ({@link #flink}, {@link #startFlink}) and
 * its REST API.
 *
 * <p>Guarantees:
 *
 * <ul>
 *   <li>The processes run the repository's {@code flink-conf/config.yaml} (RocksDB, restart
 *       strategy, Prometheus reporter, ...) with these overrides: every address 127.0.0.1, the
 *       JobManager's RPC and REST ports picked free at start, small memory sizes, serial GC and
 *       C1-only JIT ({@code env.java.opts.all}), scratch and fallback checkpoint directories under
 *       the cluster directory, faster heartbeats (a killed TaskManager is noticed within seconds),
 *       then the builder's {@link Builder#configuration(Map)} (for example an S3 server's {@code
 *       s3.*} settings); Hadoop settings ({@link Builder#hadoopConfiguration(Map)}) in a {@code
 *       core-site.xml} on the class path.
 *   <li>The directory is {@code lib/}, {@code plugins/} (flink-s3-fs-hadoop,
 *       flink-metrics-prometheus), {@code conf/}, {@code log/} ({@code jobmanager.log}, {@code
 *       tm-<i>.log}, {@code flink-<n>.log} per CLI run, each with a {@code .out} for standard
 *       output) and a scratch directory per process.
 *   <li>{@link #start()} returns once the REST API answers and every TaskManager has registered;
 *       otherwise it stops what it started and throws {@link FlinkClusterException} with the tail
 *       of the failing process's log.
 *   <li>No process outlives the test JVM: an {@link OrphanReaper} watches each one. {@link
 *       #close()} stops CLI runs, TaskManagers and the JobManager, and deletes the directory unless
 *       the caller gave it ({@link Builder#directory}).
 * </ul>
 *
 * <p>The waiting methods throw {@link FlinkClusterException} on timeout or when a job ends in
 * another state than the one waited for.
 */
public final class FlinkCluster implements AutoCloseable {

  /** The address every process binds to. */
  public static final String HOST = FreePort.LOOPBACK;

  private static final Logger LOG = LoggerFactory.getLogger(FlinkCluster.class);

  /** How long a REST read waits for a JobMaster that is still initializing. */
  private static final Duration JOB_MASTER_INITIALIZING = Duration.ofSeconds(60);

  private static final String JOB_MASTER_INITIALIZING_ERROR =
      "UnavailableDispatcherOperationException";

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String JOB_MANAGER_CLASS =
      "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint";
  private static final String APPLICATION_JOB_MANAGER_CLASS =
      "org.apache.flink.container.entrypoint.StandaloneApplicationClusterEntryPoint";
  private static final String TASK_MANAGER_CLASS =
      "org.apache.flink.runtime.taskexecutor.TaskManagerRunner";
  private static final String CLI_CLASS = "org.apache.flink.client.cli.CliFrontend";
  private static final Set<String> ACTIONS_WITH_ADDRESS =
      Set.of("run", "list", "stop", "cancel", "savepoint", "checkpoint");
  private static final int START_ATTEMPTS = 3;
  private static final Duration CLI_TIMEOUT = Duration.ofMinutes(3);

  /** Builds a {@link FlinkCluster}; nothing starts before {@link #start()}. */
  public static final class Builder {
    private int taskManagers = 2;
    private int slotsPerTaskManager = 1;
    private String jobManagerMemory = "1024m";
    private String taskManagerMemory = "1280m";
    private Duration startTimeout = Duration.ofSeconds(90);
    private Path directory;
    private final Map<String, String> configuration = new LinkedHashMap<>();
    private Application application;
    private final Map<String, String> hadoopConfiguration = new LinkedHashMap<>();

    private Builder() {}

    /**
     * Starts an application cluster instead of a session cluster: the JobManager is Flink's {@code
     * StandaloneApplicationClusterEntryPoint}, which runs {@code jobClassName}'s main from {@code
     * userJar} (linked into the cluster's {@code usrlib/}, its user class path) with {@code
     * programArgs}, as a managed service or {@code flink run-application} runs an application. The
     * cluster runs that application's job only; by Flink's default it shuts down once the job has
     * ended ({@code execution.shutdown-on-application-finish}).
     *
     * @param jobClassName the main class, or null to let Flink find it in the jar's manifest
     */
    public Builder application(Path userJar, String jobClassName, String... programArgs) {
      this.application = new Application(userJar, jobClassName, List.of(programArgs));
      return this;
    }

    /** TaskManagers started with the cluster; default 2. */
    public Builder taskManagers(int count) {
      if (count < 0) {
        throw new IllegalArgumentException("taskManagers must be >= 0, was " + count);
      }
      this.taskManagers = count;
      return this;
    }

    /**
     * {@code taskmanager.numberOfTaskSlots}; default 1, so parallel tasks land on distinct JVMs.
     */
    public Builder slotsPerTaskManager(int slots) {
      this.slotsPerTaskManager = slots;
      return this;
    }

    /** {@code jobmanager.memory.process.size}; default 1024m. */
    public Builder jobManagerMemory(String size) {
      this.jobManagerMemory = size;
      return this;
    }

    /** {@code taskmanager.memory.process.size}; default 1280m. */
    public Builder taskManagerMemory(String size) {
      this.taskManagerMemory = size;
      return this;
    }

    /** How long {@link #start()} and {@link #startTaskManager()} wait; default 90 s. */
    public Builder startTimeout(Duration timeout) {
      this.startTimeout = timeout;
      return this;
    }

    /**
     * The cluster directory (created if missing, kept on {@link #close()} so logs can be read after
     * a failure); default a temporary directory that {@link #close()} deletes.
     */
    public Builder directory(Path directory) {
      this.directory = directory;
      return this;
    }

    /** Settings for every process and the CLI, applied last (they win over the defaults). */
    public Builder configuration(Map<String, String> settings) {
      configuration.putAll(settings);
      return this;
    }

    /** {@link #configuration(Map)} of a Flink configuration, e.g. an S3 server's. */
    public Builder configuration(Configuration settings) {
      return configuration(settings.toMap());
    }

    /** One setting; see {@link #configuration(Map)}. */
    public Builder configuration(String key, String value) {
      configuration.put(key, value);
      return this;
    }

    /**
     * Hadoop settings for every process and the CLI, in {@code hadoop-conf/core-site.xml}, which is
     * their {@code HADOOP_CONF_DIR} and on their class path, as Flink's scripts set up a cluster's
     * {@code HADOOP_CONF_DIR}: a {@code new org.apache.hadoop.conf.Configuration()} in a job reads
     * them (Delta Kernel's engine on {@code s3a://} or S3A-backed {@code s3://} table paths, for
     * example). The {@code flink-s3-fs-hadoop} plugin takes its settings from {@link
     * #configuration(Map)} instead.
     */
    public Builder hadoopConfiguration(Map<String, String> settings) {
      hadoopConfiguration.putAll(settings);
      return this;
    }

    /**
     * Lays out the directory and starts the JobManager and the TaskManagers.
     *
     * @throws FlinkClusterException if a process does not come up within the start timeout
     * @throws IllegalStateException if the cluster's jars cannot be found
     */
    public FlinkCluster start() {
      return FlinkCluster.start(this);
    }
  }

  /** The application an application cluster runs. */
  private record Application(Path userJar, String jobClassName, List<String> programArgs) {}

  private final Builder settings;
  private final TempDirectory ownedDirectory;
  private final FlinkHome home;
  private final int restPort;
  private final HttpClient http = HttpClient.newHttpClient();
  private final FlinkProcess jobManager;
  private final List<FlinkProcess> taskManagers = new ArrayList<>();
  private final List<FlinkCommand> commands = new ArrayList<>();
  private final AtomicInteger commandCount = new AtomicInteger();
  private boolean closed;

  private FlinkCluster(
      Builder settings,
      TempDirectory ownedDirectory,
      FlinkHome home,
      int restPort,
      FlinkProcess jobManager) {
    this.settings = settings;
    this.ownedDirectory = ownedDirectory;
    this.home = home;
    this.restPort = restPort;
    this.jobManager = jobManager;
  }

  /** A builder with the defaults: 2 TaskManagers of one slot each, local directories. */
  public static Builder builder() {
    return new Builder();
  }

  private static FlinkCluster start(Builder settings) {
    long started = System.nanoTime();
    TempDirectory owned =
        settings.directory == null ? TempDirectory.create("lakestream-flink-cluster-") : null;
    Path root = owned != null ? owned.path() : settings.directory.toAbsolutePath();
    FlinkCluster cluster = null;
    try {
      cluster = startJobManager(settings, owned, root);
      cluster.startTaskManagers(settings.taskManagers);
      LOG.info(
          "Flink cluster up at {} ({} TaskManagers, dir {}) in {} ms",
          cluster.restApi(),
          settings.taskManagers,
          root,
          Duration.ofNanos(System.nanoTime() - started).toMillis());
      return cluster;
    } catch (RuntimeException e) {
      if (cluster != null) {
        cluster.close();
      } else if (owned != null) {
        owned.close();
      }
      throw e;
    }
  }

  private static FlinkCluster startJobManager(Builder settings, TempDirectory owned, Path root) {
    for (int attempt = 1; ; attempt++) {
      int rpcPort = FreePort.pick();
      int restPort = FreePort.pick();
      FlinkHome home =
          FlinkHome.create(
              root, overrides(settings, root, rpcPort, restPort), settings.hadoopConfiguration);
      String mainClass =
          settings.application == null ? JOB_MANAGER_CLASS : APPLICATION_JOB_MANAGER_CLASS;
      if (settings.application != null) {
        home.linkUserJar(settings.application.userJar());
      }
      // Should the test JVM die, the JobManager's reaper deletes a directory the cluster created.
      Path reaped = owned != null ? root : root.resolve("jobmanager");
      FlinkProcess jm =
          launch(
              "jobmanager",
              mainClass,
              jobManagerArgs(home, mainClass, settings.application),
              home,
              reaped);
      FlinkCluster cluster = new FlinkCluster(settings, owned, home, restPort, jm);
      try {
        cluster.awaitUntil(
            "the JobManager's REST API on port " + restPort,
            settings.startTimeout,
            jm,
            cluster::restAnswers);
        return cluster;
      } catch (FlinkClusterException e) {
        jm.stop();
        if (attempt >= START_ATTEMPTS || !e.getMessage().contains("Address already in use")) {
          throw e;
        }
        LOG.warn("a JobManager port was taken before it bound it; retrying on new ports");
      }
    }
  }

  /** The cluster's settings over the repository's config.yaml. */
  private static Map<String, String> overrides(
      Builder settings, Path root, int rpcPort, int restPort) {
    Map<String, String> conf = new LinkedHashMap<>();
    conf.put("jobmanager.rpc.address", HOST);
    conf.put("jobmanager.rpc.port", Integer.toString(rpcPort));
    conf.put("jobmanager.bind-host", HOST);
    conf.put("rest.address", HOST);
    conf.put("rest.bind-address", HOST);
    conf.put("rest.port", Integer.toString(restPort));
    conf.put("taskmanager.host", HOST);
    conf.put("taskmanager.bind-host", HOST);
    conf.put("jobmanager.memory.process.size", settings.jobManagerMemory);
    conf.put("taskmanager.memory.process.size", settings.taskManagerMemory);
    conf.put("taskmanager.numberOfTaskSlots", Integer.toString(settings.slotsPerTaskManager));
    conf.put("io.tmp.dirs", root.resolve("tmp").toString());
    conf.put("state.backend.rocksdb.localdir", root.resolve("rocksdb").toString());
    conf.put("execution.checkpointing.dir", root.resolve("checkpoints").toUri().toString());
    conf.put(
        "execution.checkpointing.savepoint-dir", root.resolve("savepoints").toUri().toString());
    // A SIGKILLed TaskManager is noticed by failed heartbeat RPCs within a few seconds.
    conf.put("heartbeat.interval", "2 s");
    conf.put("heartbeat.timeout", "20 s");
    conf.put("metrics.fetcher.update-interval", "1 s");
    // Small JVMs on a shared test machine: quicker start, less JIT and GC work.
    conf.put("env.java.opts.all", "-XX:+UseSerialGC -XX:TieredStopAtLevel=1");
    conf.putAll(settings.configuration);
    return conf;
  }

  private static List<String> jobManagerArgs(
      FlinkHome home, String mainClass, Application application) {
    Configuration conf = home.configuration();
    JobManagerProcessSpec spec =
        JobManagerProcessUtils.processSpecFromConfigWithNewOptionToInterpretLegacyHeap(
            conf, JobManagerOptions.TOTAL_PROCESS_MEMORY);
    List<String> jvm =
        new ArrayList<>(split(JobManagerProcessUtils.generateJvmParametersStr(spec, conf)));
    jvm.addAll(home.jvmOptions(CoreOptions.FLINK_JM_JVM_OPTIONS));
    List<String> args = new ArrayList<>(List.of("--configDir", home.conf().toString()));
    args.addAll(split(JobManagerProcessUtils.generateDynamicConfigsStr(spec)));
    args.addAll(dynamic("metrics.reporter.prom.port", Integer.toString(FreePort.pick())));
    args.addAll(dynamic("io.tmp.dirs", tmpDirectory(home.root().resolve("jobmanager"))));
    if (application != null) {
      if (application.jobClassName() != null) {
        args.addAll(List.of("--job-classname", application.jobClassName()));
      }
      args.addAll(application.programArgs());
    }
    return command(jvm, mainClass, args);
  }

  private List<String> taskManagerArgs(String resourceId) {
    Configuration conf =
        TaskExecutorProcessUtils.getConfigurationMapLegacyTaskManagerHeapSizeToConfigOption(
            home.configuration(), TaskManagerOptions.TOTAL_PROCESS_MEMORY);
    TaskExecutorProcessSpec spec = TaskExecutorProcessUtils.processSpecFromConfig(conf);
    List<String> jvm = new ArrayList<>(split(ProcessMemoryUtils.generateJvmParametersStr(spec)));
    jvm.addAll(home.jvmOptions(CoreOptions.FLINK_TM_JVM_OPTIONS));
    Path scratch = home.root().resolve(resourceId);
    List<String> args = new ArrayList<>(List.of("--configDir", home.conf().toString()));
    args.addAll(split(TaskExecutorProcessUtils.generateDynamicConfigsStr(spec)));
    args.addAll(dynamic("taskmanager.resource-id", resourceId));
    args.addAll(dynamic("metrics.reporter.prom.port", Integer.toString(FreePort.pick())));
    args.addAll(dynamic("io.tmp.dirs", tmpDirectory(scratch)));
    args.addAll(dynamic("state.backend.rocksdb.localdir", scratch.resolve("rocksdb").toString()));
    return command(jvm, TASK_MANAGER_CLASS, args);
  }

  private static List<String> command(List<String> jvm, String mainClass, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvm);
    command.add(mainClass);
    command.addAll(args);
    return command;
  }

  /** Adds log settings and the class path (after the JVM options, before the main class). */
  private static FlinkProcess launch(
      String name, String mainClass, List<String> command, FlinkHome home, Path scratch) {
    Path logFile = home.log().resolve(name + ".log");
    List<String> full = new ArrayList<>(command);
    int main = full.indexOf(mainClass);
    full.addAll(
        main,
        List.of(
            "-Dlog.file=" + logFile,
            "-Dlog4j.configuration=" + home.processLog4j().toUri(),
            "-Dlog4j.configurationFile=" + home.processLog4j().toUri(),
            "-classpath",
            home.classpath()));
    try {
      return FlinkProcess.start(name, full, home, scratch, logFile);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the Flink " + name + " JVM", e);
    }
  }

  /** Creates {@code <dir>/tmp} (Flink expects io.tmp.dirs to exist) and returns its path. */
  private static String tmpDirectory(Path dir) {
    try {
      return Files.createDirectories(dir.resolve("tmp")).toString();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + dir.resolve("tmp"), e);
    }
  }

  private static List<String> split(String options) {
    String trimmed = options.trim();
    return trimmed.isEmpty() ? List.of() : List.of(trimmed.split("\\s+"));
  }

  private static List<String> dynamic(String key, String value) {
    return List.of("-D", key + "=" + value);
  }

  // ---------------------------------------------------------------------------------------------
  // Cluster

  /** The REST API, e.g. {@code http://127.0.0.1:41234}. */
  public URI restApi() {
    return URI.create("http://" + HOST + ":" + restPort);
  }

  /** The {@code -m} value for the CLI: {@code 127.0.0.1:<rest port>}. */
  public String jobManagerAddress() {
    return HOST + ":" + restPort;
  }

  /** The cluster directory. */
  public Path directory() {
    return home.root();
  }

  /** The directory of the processes' logs. */
  public Path logDirectory() {
    return home.log();
  }

  /** The configuration every process reads (conf/config.yaml), parsed. */
  public Configuration configuration() {
    return home.configuration();
  }

  /** How many TaskManagers were started so far (killed ones included). */
  public synchronized int taskManagersStarted() {
    return taskManagers.size();
  }

  /**
   * Starts one more TaskManager (resource id {@code tm-<index>}) and waits until it registered.
   *
   * @return its index, for {@link #killTaskManager}
   * @throws FlinkClusterException if it does not register within the start timeout
   */
  public synchronized int startTaskManager() {
    return startTaskManagers(1).get(0);
  }

  /**
   * Starts {@code count} more TaskManagers at once and waits until all registered.
   *
   * @return their indexes
   * @throws FlinkClusterException if one does not register within the start timeout
   */
  public synchronized List<Integer> startTaskManagers(int count) {
    List<Integer> started = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String id = taskManagerId(taskManagers.size());
      started.add(taskManagers.size());
      taskManagers.add(
          launch(id, TASK_MANAGER_CLASS, taskManagerArgs(id), home, home.root().resolve(id)));
    }
    for (int index : started) {
      FlinkProcess tm = taskManagers.get(index);
      awaitUntil(
          "TaskManager " + tm.name() + " to register",
          settings.startTimeout,
          tm,
          () -> registeredTaskManagers().contains(tm.name()));
      LOG.info("TaskManager {} registered (pid {})", tm.name(), tm.pid());
    }
    return started;
  }

  /**
   * Kills TaskManager {@code index} with SIGKILL ({@link Process#destroyForcibly()}), as a crashed
   * machine, and waits until its JVM is gone. The JobManager learns of it by failed heartbeats.
   *
   * @throws IllegalArgumentException if there is no such TaskManager
   */
  public synchronized void killTaskManager(int index) {
    if (index < 0 || index >= taskManagers.size()) {
      throw new IllegalArgumentException(
          "no TaskManager " + index + ": " + taskManagers.size() + " were started");
    }
    FlinkProcess tm = taskManagers.get(index);
    tm.kill();
    LOG.info("TaskManager {} killed (SIGKILL, pid {})", tm.name(), tm.pid());
  }

  /** Whether TaskManager {@code index}'s JVM is running. */
  public synchronized boolean isTaskManagerAlive(int index) {
    return taskManagers.get(index).isAlive();
  }

  /** The JobManager's JVM. */
  public ProcessHandle jobManagerProcess() {
    return jobManager.handle();
  }

  /** TaskManager {@code index}'s JVM. */
  public synchronized ProcessHandle taskManagerProcess(int index) {
    return taskManagers.get(index).handle();
  }

  /** The resource ids of the TaskManagers the JobManager lists as registered. */
  public List<String> registeredTaskManagers() {
    List<String> ids = new ArrayList<>();
    rest("/taskmanagers").path("taskmanagers").forEach(tm -> ids.add(tm.path("id").asText()));
    return ids;
  }

  private static String taskManagerId(int index) {
    return "tm-" + index;
  }

  // ---------------------------------------------------------------------------------------------
  // CLI

  /**
   * Runs {@code flink <args>} (Flink's {@code CliFrontend}) in a child JVM against this cluster and
   * waits for it to end (at most 3 minutes). For {@code run}, {@code list}, {@code stop}, {@code
   * cancel} and {@code savepoint}, {@code -m 127.0.0.1:<rest port>} is added after the action.
   *
   * @throws FlinkClusterException if it does not end in time (it is killed)
   */
  public FlinkCommand.Result flink(String... args) {
    return startFlink(args).awaitExit(CLI_TIMEOUT);
  }

  /**
   * Starts {@code flink <args>} like {@link #flink} without waiting for it, e.g. {@code flink run}
   * of a query whose client stays until the job ends.
   */
  public synchronized FlinkCommand startFlink(String... args) {
    List<String> cli = withAddress(List.of(args));
    int n = commandCount.incrementAndGet();
    String name = "flink-" + n;
    Path logFile = home.log().resolve(name + ".log");
    Path outFile = home.log().resolve(name + ".out");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(home.jvmOptions(CoreOptions.FLINK_CLI_JVM_OPTIONS));
    command.addAll(
        List.of(
            "-Dlog.file=" + logFile,
            "-Dlog4j.configuration=" + home.clientLog4j().toUri(),
            "-Dlog4j.configurationFile=" + home.clientLog4j().toUri(),
            "-classpath",
            home.classpath(),
            CLI_CLASS));
    command.addAll(cli);
    try {
      Path scratch = Files.createDirectories(home.root().resolve("clients").resolve(name));
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .directory(home.root().toFile())
              .redirectErrorStream(true)
              .redirectOutput(outFile.toFile());
      FlinkProcess.environment(builder.environment(), home);
      Process process = builder.start();
      FlinkCommand started =
          new FlinkCommand(
              cli, process, OrphanReaper.watch(process.pid(), scratch), outFile, logFile);
      commands.add(started);
      LOG.info("started flink {} (pid {})", String.join(" ", cli), process.pid());
      return started;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start flink " + String.join(" ", cli), e);
    }
  }

  private List<String> withAddress(List<String> args) {
    if (args.isEmpty()
        || !ACTIONS_WITH_ADDRESS.contains(args.get(0))
        || args.contains("-m")
        || args.contains("--jobmanager")) {
      return args;
    }
    List<String> with = new ArrayList<>(args);
    with.addAll(1, List.of("-m", jobManagerAddress()));
    return with;
  }

  // ---------------------------------------------------------------------------------------------
  // REST

  /**
   * GET {@code path} (e.g. {@code /jobs/overview}) from the REST API, parsed as JSON.
   *
   * @throws FlinkClusterException if the JobManager does not answer 200
   */
  public JsonNode rest(String path) {
    HttpRequest request =
        HttpRequest.newBuilder(restApi().resolve(path)).timeout(Duration.ofSeconds(10)).build();
    try {
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      long initializingUntil = System.nanoTime() + JOB_MASTER_INITIALIZING.toNanos();
      // A job just submitted or restored answers 500 until its JobMaster is up: ask again.
      while (response.statusCode() != 200
          && response.body().contains(JOB_MASTER_INITIALIZING_ERROR)
          && System.nanoTime() < initializingUntil) {
        Thread.sleep(200);
        response = http.send(request, HttpResponse.BodyHandlers.ofString());
      }
      if (response.statusCode() != 200) {
        throw new FlinkClusterException(
            "GET " + path + " answered " + response.statusCode() + ": " + response.body());
      }
      return MAPPER.readTree(response.body());
    } catch (IOException e) {
      throw new FlinkClusterException("GET " + restApi().resolve(path) + " failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FlinkClusterException("interrupted during GET " + path, e);
    }
  }

  /**
   * POST {@code body} (JSON) to {@code path} of the REST API, parsed as JSON.
   *
   * @throws FlinkClusterException if the JobManager does not answer 200 or 202
   */
  public JsonNode restPost(String path, JsonNode body) {
    HttpRequest request =
        HttpRequest.newBuilder(restApi().resolve(path))
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
            .build();
    try {
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200 && response.statusCode() != 202) {
        throw new FlinkClusterException(
            "POST " + path + " answered " + response.statusCode() + ": " + response.body());
      }
      return MAPPER.readTree(response.body());
    } catch (IOException e) {
      throw new FlinkClusterException("POST " + restApi().resolve(path) + " failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FlinkClusterException("interrupted during POST " + path, e);
    }
  }

  /** The jobs the JobManager knows, running or ended. */
  public List<JobID> jobs() {
    List<JobID> jobs = new ArrayList<>();
    rest("/jobs/overview")
        .path("jobs")
        .forEach(j -> jobs.add(JobID.fromHexString(j.path("jid").asText())));
    return jobs;
  }

  /**
   * Waits until the JobManager knows a job (an application cluster's: its main submitted it) and
   * returns it.
   *
   * @throws FlinkClusterException on timeout, or when the JobManager exits first (its main failed)
   */
  public JobID awaitJob(Duration timeout) {
    awaitUntil(
        "the application's job to be submitted", timeout, jobManager, () -> !jobs().isEmpty());
    return jobs().get(0);
  }

  /**
   * Stops {@code job} with a savepoint in {@code targetDirectory} through the REST API ({@code POST
   * /jobs/<id>/stop}, no drain) and waits until the savepoint is complete.
   *
   * @return the savepoint's path
   * @throws FlinkClusterException on timeout or when the savepoint fails
   */
  public String stopWithSavepoint(JobID job, String targetDirectory, Duration timeout) {
    JsonNode body =
        MAPPER.createObjectNode().put("targetDirectory", targetDirectory).put("drain", false);
    String trigger = restPost("/jobs/" + job + "/stop", body).path("request-id").asText();
    String[] location = new String[1];
    awaitUntil(
        "the savepoint of job " + job,
        timeout,
        jobManager,
        () -> {
          JsonNode status = rest("/jobs/" + job + "/savepoints/" + trigger);
          if (!"COMPLETED".equals(status.path("status").path("id").asText())) {
            return false;
          }
          JsonNode operation = status.path("operation");
          if (operation.has("failure-cause")) {
            throw new FlinkClusterException(
                "the savepoint of job " + job + " failed: " + operation.path("failure-cause"));
          }
          location[0] = operation.path("location").asText();
          return true;
        });
    LOG.info("job {} stopped with savepoint {}", job, location[0]);
    return location[0];
  }

  /** The snapshot {@code job} restored when it started (REST checkpoint statistics), if any. */
  public java.util.Optional<String> restoredSnapshot(JobID job) {
    JsonNode restored = rest("/jobs/" + job + "/checkpoints").path("latest").path("restored");
    return restored.isMissingNode() || restored.isNull()
        ? java.util.Optional.empty()
        : java.util.Optional.of(restored.path("external_path").asText());
  }

  private boolean restAnswers() {
    try {
      rest("/overview");
      return true;
    } catch (FlinkClusterException notYet) {
      return false;
    }
  }

  /** The job's status as the JobManager reports it. */
  public JobStatus jobStatus(JobID job) {
    return JobStatus.valueOf(rest("/jobs/" + job).path("state").asText());
  }

  /**
   * Waits until the job is in {@code status}.
   *
   * @throws FlinkClusterException on timeout, or if the job reaches another terminal state
   */
  public void awaitJobStatus(JobID job, JobStatus status, Duration timeout) {
    awaitUntil(
        "job " + job + " to be " + status,
        timeout,
        null,
        () -> {
          JobStatus now = jobStatus(job);
          if (now != status && now.isGloballyTerminalState()) {
            throw new FlinkClusterException(
                "job " + job + " is " + now + ", not " + status + "; " + rootException(job));
          }
          return now == status;
        });
  }

  /**
   * Waits until the job is RUNNING with every task RUNNING (after a restart, all tasks deployed
   * again).
   *
   * @throws FlinkClusterException on timeout, or if the job reaches a terminal state
   */
  public void awaitAllTasksRunning(JobID job, Duration timeout) {
    awaitUntil(
        "every task of job " + job + " to run",
        timeout,
        null,
        () -> {
          JsonNode details = rest("/jobs/" + job);
          JobStatus now = JobStatus.valueOf(details.path("state").asText());
          if (now.isGloballyTerminalState()) {
            throw new FlinkClusterException(
                "job " + job + " ended " + now + "; " + rootException(job));
          }
          boolean all = now == JobStatus.RUNNING && details.path("vertices").size() > 0;
          for (JsonNode vertex : details.path("vertices")) {
            all &= "RUNNING".equals(vertex.path("status").asText());
          }
          return all;
        });
  }

  /** Completed checkpoints of the job (savepoints included), across its restarts. */
  public long completedCheckpoints(JobID job) {
    return rest("/jobs/" + job + "/checkpoints").path("counts").path("completed").asLong();
  }

  /**
   * Waits until the job has completed at least {@code count} checkpoints.
   *
   * @throws FlinkClusterException on timeout, or if the job reaches a terminal state
   */
  public void awaitCompletedCheckpoints(JobID job, long count, Duration timeout) {
    awaitUntil(
        count + " completed checkpoints of job " + job,
        timeout,
        null,
        () -> {
          JobStatus now = jobStatus(job);
          if (now.isGloballyTerminalState()) {
            throw new FlinkClusterException(
                "job " + job + " ended " + now + "; " + rootException(job));
          }
          return completedCheckpoints(job) >= count;
        });
  }

  /** The failures in the job's exception history (each caused a restart), newest first. */
  public List<String> jobFailures(JobID job) {
    List<String> failures = new ArrayList<>();
    rest("/jobs/" + job + "/exceptions")
        .path("exceptionHistory")
        .path("entries")
        .forEach(
            e ->
                failures.add(
                    e.path("exceptionName").asText()
                        + " on "
                        + e.path("taskManagerId").asText("?")
                        + ": "
                        + firstLine(e.path("stacktrace").asText())));
    return failures;
  }

  /**
   * Waits until the job's exception history records a failure (for example of a killed
   * TaskManager's tasks); returns the failures then, newest first.
   *
   * @throws FlinkClusterException on timeout
   */
  public List<String> awaitJobFailure(JobID job, Duration timeout) {
    awaitUntil(
        "a failure of job " + job + " to be recorded",
        timeout,
        null,
        () -> !jobFailures(job).isEmpty());
    return jobFailures(job);
  }

  private String rootException(JobID job) {
    try {
      String root = rest("/jobs/" + job + "/exceptions").path("root-exception").asText("");
      return root.isEmpty() ? "no root exception" : "root exception: " + root;
    } catch (FlinkClusterException e) {
      return "exceptions unavailable (" + e.getMessage() + ")";
    }
  }

  private static String firstLine(String text) {
    int newline = text.indexOf('\n');
    return newline < 0 ? text : text.substring(0, newline);
  }

  /**
   * Polls {@code condition} every 200 ms until true; fails on timeout, or as soon as {@code
   * process} (if given) dies, with the tail of its log.
   */
  private void awaitUntil(
      String what, Duration timeout, FlinkProcess process, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (process != null && !process.isAlive()) {
        throw new FlinkClusterException(
            process + " exited while waiting for " + what + process.logTail());
      }
      if (System.nanoTime() > deadline) {
        throw new FlinkClusterException(
            "timed out after "
                + timeout.toSeconds()
                + " s waiting for "
                + what
                + (process == null ? "" : process.logTail()));
      }
      sleep(Duration.ofMillis(200));
    }
  }

  static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FlinkClusterException("interrupted", e);
    }
  }

  /**
   * Kills running CLI commands, stops the TaskManagers and the JobManager (SIGTERM, then SIGKILL
   * after 15 s) and deletes the directory if the cluster created it. Idempotent.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    commands.forEach(FlinkCommand::destroy);
    taskManagers.forEach(FlinkProcess::stop);
    jobManager.stop();
    if (ownedDirectory != null) {
      ownedDirectory.close();
    }
    LOG.info("Flink cluster at {} stopped", restApi());
  }

  @Override
  public String toString() {
    return "FlinkCluster[" + restApi() + ", " + taskManagers.size() + " TaskManagers started]";
  }
}
