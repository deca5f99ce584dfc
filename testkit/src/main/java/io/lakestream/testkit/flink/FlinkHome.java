package io.lakestream.testkit.flink;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.GlobalConfiguration;

/**
 * A {@code FLINK_HOME}-like directory assembled from Maven artifacts, since the Flink distribution
 * archive is not available: {@code lib/} (links to the jars module lakestream-flink-cluster-runtime
 * resolves), {@code plugins/<name>/} (flink-s3-fs-hadoop, flink-metrics-prometheus), {@code
 * conf/config.yaml} (the repository's {@code flink-conf/config.yaml} with the cluster's overrides
 * replacing its keys), {@code conf/log4j*.properties} (everything to files under {@code log/}) and,
 * when Hadoop settings are given, {@code hadoop-conf/core-site.xml}: Flink's scripts put a
 * cluster's {@code HADOOP_CONF_DIR} on every process's class path, and so does {@link
 * #classpath()}.
 */
final class FlinkHome {

  private static final String RESOURCES = "io/lakestream/testkit/flink/cluster/";
  private static final String CORE_SITE = "core-site.xml";
  private static final Pattern TOP_LEVEL_KEY = Pattern.compile("^([A-Za-z0-9_.\\-]+)\\s*:");

  private static final String PROCESS_LOG4J =
      String.join(
          "\n",
          "# FlinkCluster (testkit): JobManager and TaskManager logs, one file per process",
          "monitorInterval = 0",
          "rootLogger.level = INFO",
          "rootLogger.appenderRef.file.ref = MainAppender",
          "appender.main.name = MainAppender",
          "appender.main.type = File",
          "appender.main.append = true",
          "appender.main.fileName = ${sys:log.file}",
          "appender.main.layout.type = PatternLayout",
          "appender.main.layout.pattern = %d{HH:mm:ss,SSS} %-5p %-60c %x - %m%n",
          "logger.pekko.name = org.apache.pekko",
          "logger.pekko.level = WARN",
          "logger.hadoop.name = org.apache.hadoop",
          "logger.hadoop.level = WARN",
          "# Flink 1.20's sink committer re-registers its 'pendingCommittables' gauge every checkpoint",
          "logger.metricgroup.name = org.apache.flink.metrics.MetricGroup",
          "logger.metricgroup.level = ERROR",
          "");

  private static final String CLIENT_LOG4J =
      PROCESS_LOG4J.replace("JobManager and TaskManager logs", "flink CLI logs");

  private final Path root;

  private FlinkHome(Path root) {
    this.root = root;
  }

  /**
   * Lays out the directory under {@code root} (which may exist) with {@code overrides} replacing
   * the keys of the repository's config.yaml.
   *
   * @throws IllegalStateException if the resources of lakestream-flink-cluster-runtime are missing
   *     or name jars that do not exist (rebuild it on this machine)
   * @throws UncheckedIOException if the directory cannot be written
   */
  static FlinkHome create(Path root, Map<String, String> overrides) {
    return create(root, overrides, Map.of());
  }

  /**
   * As {@link #create(Path, Map)}, and with {@code hadoop} (if not empty) written to {@code
   * hadoop-conf/core-site.xml}, the processes' {@code HADOOP_CONF_DIR} and class path entry.
   */
  static FlinkHome create(Path root, Map<String, String> overrides, Map<String, String> hadoop) {
    FlinkHome home = new FlinkHome(root);
    try {
      Files.createDirectories(home.log());
      home.linkLib();
      linkPlugins(home.plugins());
      home.writeConfiguration(overrides);
      home.writeHadoopConfiguration(hadoop);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot lay out a Flink home directory at " + root, e);
    }
    return home;
  }

  Path root() {
    return root;
  }

  Path conf() {
    return root.resolve("conf");
  }

  Path lib() {
    return root.resolve("lib");
  }

  Path plugins() {
    return root.resolve("plugins");
  }

  Path log() {
    return root.resolve("log");
  }

  /** {@code usrlib/}: an application cluster's user class path. */
  Path usrlib() {
    return root.resolve("usrlib");
  }

  /** Links {@code jar} into {@link #usrlib()}, where an application cluster finds its program. */
  void linkUserJar(Path jar) {
    requireFile(jar, "application jar");
    try {
      Files.createDirectories(usrlib());
      link(usrlib().resolve(jar.getFileName()), jar.toAbsolutePath());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot link " + jar + " into " + usrlib(), e);
    }
  }

  /** The Hadoop configuration directory, if Hadoop settings were given. */
  Optional<Path> hadoopConf() {
    Path dir = root.resolve("hadoop-conf");
    return Files.isRegularFile(dir.resolve(CORE_SITE)) ? Optional.of(dir) : Optional.empty();
  }

  /** The class path of every process: {@code lib/*}, then the Hadoop configuration directory. */
  String classpath() {
    String lib = lib().toAbsolutePath() + "/*";
    return hadoopConf().map(dir -> lib + java.io.File.pathSeparator + dir).orElse(lib);
  }

  /** conf/config.yaml parsed by Flink, as each process reads it. */
  Configuration configuration() {
    return GlobalConfiguration.loadConfiguration(conf().toString());
  }

  /**
   * The JVM options the Flink scripts start a process with: {@code env.java.default-opts.all},
   * {@code env.java.opts.all} and the process's own option (e.g. {@code
   * env.java.opts.taskmanager}).
   */
  List<String> jvmOptions(ConfigOption<String> processOption) {
    Configuration conf = configuration();
    List<String> options = new ArrayList<>();
    for (ConfigOption<String> option :
        List.of(
            CoreOptions.FLINK_DEFAULT_JVM_OPTIONS, CoreOptions.FLINK_JVM_OPTIONS, processOption)) {
      String value = conf.get(option);
      if (value != null && !value.isBlank()) {
        options.addAll(List.of(value.trim().split("\\s+")));
      }
    }
    return options;
  }

  /** The log4j configuration for the JobManager and TaskManagers. */
  Path processLog4j() {
    return conf().resolve("log4j.properties");
  }

  /** The log4j configuration for the CLI front end. */
  Path clientLog4j() {
    return conf().resolve("log4j-cli.properties");
  }

  private void linkLib() throws IOException {
    Files.createDirectories(lib());
    Set<String> names = new LinkedHashSet<>();
    for (Path jar : FlinkLib.clusterJars()) {
      if (names.add(jar.getFileName().toString())) {
        link(lib().resolve(jar.getFileName()), jar);
      }
    }
  }

  /** Links each plugin of a cluster (flink-s3-fs-hadoop, ...) into {@code <root>/<name>/}. */
  static void linkPlugins(Path root) throws IOException {
    Properties plugins = new Properties();
    plugins.load(new java.io.StringReader(resource("plugins.properties")));
    for (String name : plugins.stringPropertyNames()) {
      Path jar = Path.of(plugins.getProperty(name).trim());
      requireFile(jar, "plugin " + name);
      Path dir = Files.createDirectories(root.resolve(name));
      link(dir.resolve(jar.getFileName()), jar);
    }
  }

  private void writeConfiguration(Map<String, String> overrides) throws IOException {
    Files.createDirectories(conf());
    Files.writeString(
        conf().resolve("config.yaml"),
        withOverrides(resource("config.yaml"), overrides),
        StandardCharsets.UTF_8);
    Files.writeString(processLog4j(), PROCESS_LOG4J, StandardCharsets.UTF_8);
    Files.writeString(clientLog4j(), CLIENT_LOG4J, StandardCharsets.UTF_8);
  }

  /**
   * {@code yaml} (a flat Flink config.yaml) with the lines of overridden keys left out and the
   * overrides appended, single-quoted. YAML forbids duplicate keys, so a key is never repeated.
   */
  static String withOverrides(String yaml, Map<String, String> overrides) {
    StringBuilder out = new StringBuilder();
    for (String line : yaml.split("\n", -1)) {
      Matcher key = TOP_LEVEL_KEY.matcher(line);
      if (key.find() && overrides.containsKey(key.group(1))) {
        out.append("# (overridden below) ").append(line).append('\n');
      } else {
        out.append(line).append('\n');
      }
    }
    out.append("\n# FlinkCluster (testkit) settings\n");
    overrides.forEach(
        (k, v) -> out.append(k).append(": '").append(v.replace("'", "''")).append("'\n"));
    return out.toString();
  }

  /** {@code hadoop-conf/core-site.xml} with {@code settings}; nothing when there are none. */
  private void writeHadoopConfiguration(Map<String, String> settings) throws IOException {
    Path dir = root.resolve("hadoop-conf");
    if (settings.isEmpty()) {
      Files.deleteIfExists(dir.resolve(CORE_SITE)); // a directory reused from an earlier run
      return;
    }
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n");
    xml.append("<!-- FlinkCluster (testkit): Hadoop settings of every process -->\n");
    xml.append("<configuration>\n");
    settings.forEach(
        (key, value) ->
            xml.append("  <property><name>")
                .append(xmlText(key))
                .append("</name><value>")
                .append(xmlText(value))
                .append("</value></property>\n"));
    xml.append("</configuration>\n");
    Files.createDirectories(dir);
    Files.writeString(dir.resolve(CORE_SITE), xml.toString(), StandardCharsets.UTF_8);
  }

  private static String xmlText(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  /**
   * A resource of lakestream-flink-cluster-runtime ({@code io/lakestream/testkit/flink/cluster/}).
   */
  static String resource(String name) {
    String path = RESOURCES + name;
    try (InputStream in = FlinkHome.class.getClassLoader().getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException(
            "resource "
                + path
                + " not found: is lakestream-flink-cluster-runtime (a dependency of"
                + " lakestream-testkit) on the class path?");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read resource " + path, e);
    }
  }

  static void requireFile(Path jar, String what) {
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          what
              + " "
              + jar
              + " does not exist: rebuild the cluster runtime on this machine (mvn install -pl"
              + " testkit/flink-cluster-runtime), which resolves it");
    }
  }

  private static void link(Path link, Path target) throws IOException {
    if (Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try {
      Files.createSymbolicLink(link, target);
    } catch (UnsupportedOperationException | IOException e) {
      Files.copy(target, link);
    }
  }
}
