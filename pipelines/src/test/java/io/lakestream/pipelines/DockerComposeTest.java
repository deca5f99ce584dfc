package io.lakestream.pipelines;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.w3c.dom.Element;

/**
 * The repository's {@code docker-compose.yml}: valid for Compose (Debian's {@code docker-compose}
 * 1.29 checks it without a Docker engine; installed with apt-get when missing and this runs as
 * root), its Flink images are the Flink version the build uses, and every host file or directory it
 * mounts exists in the repository (build outputs only at their known paths).
 */
class DockerComposeTest {

  private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
  private static final Path COMPOSE_FILE = ROOT.resolve("docker-compose.yml");

  /** Mounted build outputs of {@code mvn package}: absent before it. */
  private static final Set<String> BUILD_OUTPUTS =
      Set.of("pipelines/target/lakestream.jar", "testkit/flink-cluster-runtime/target/hadoop-lib");

  @Test
  void composeAcceptsTheFile() throws Exception {
    String compose = dockerCompose();
    List<String> command = List.of(compose, "-f", COMPOSE_FILE.toString(), "config", "-q");
    Result result = run(ROOT, command);
    assertThat(result.exitCode())
        .as("%s:\n%s", String.join(" ", command), result.output())
        .isZero();
  }

  @Test
  void flinkImagesAreTheBuildsFlinkVersionAndMountedPathsExist() throws Exception {
    String flinkVersion = flinkVersion();
    Map<String, Object> services = map(compose().get("services"));
    List<String> flinkServices = new ArrayList<>();
    List<String> mounts = new ArrayList<>();
    for (Map.Entry<String, Object> entry : services.entrySet()) {
      Map<String, Object> service = map(entry.getValue());
      String image = String.valueOf(service.get("image"));
      if (image.startsWith("flink:")) {
        flinkServices.add(entry.getKey());
        assertThat(image).as(entry.getKey()).isEqualTo("flink:" + flinkVersion + "-java17");
        assertThat(map(service.get("environment")).get("ENABLE_BUILT_IN_PLUGINS"))
            .as(entry.getKey())
            .isEqualTo("flink-s3-fs-hadoop-" + flinkVersion + ".jar");
      }
      for (Object volume : list(service.get("volumes"))) {
        String host = String.valueOf(volume).split(":")[0];
        if (host.startsWith(".") || host.startsWith("/")) {
          mounts.add(host);
        }
      }
    }
    assertThat(flinkServices).contains("jobmanager", "taskmanager-1", "taskmanager-2");
    assertThat(mounts).contains("./pipelines/target/lakestream.jar", "./flink-conf/config.yaml");
    for (String mount : mounts) {
      Path path = ROOT.resolve(mount).normalize();
      String relative = ROOT.relativize(path).toString().replace(File.separatorChar, '/');
      if (!BUILD_OUTPUTS.contains(relative)) {
        assertThat(path).as("mounted host path %s", mount).exists();
      }
    }
  }

  /** The root pom's {@code flink.version}. */
  private static String flinkVersion() throws Exception {
    Element project =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(ROOT.resolve("pom.xml").toFile())
            .getDocumentElement();
    String version = project.getElementsByTagName("flink.version").item(0).getTextContent().trim();
    assertThat(version).matches("\\d+\\.\\d+\\.\\d+");
    return version;
  }

  /** The compose file as YAML, with {@code <<} merge keys applied (YAML 1.2 has none). */
  private static Map<String, Object> compose() throws IOException {
    String text = Files.readString(COMPOSE_FILE, StandardCharsets.UTF_8);
    return map(merged(new Load(LoadSettings.builder().build()).loadFromString(text)));
  }

  private static Object merged(Object node) {
    if (node instanceof Map<?, ?> source) {
      Map<String, Object> result = new LinkedHashMap<>();
      Object base = source.get("<<");
      if (base != null) {
        map(merged(base)).forEach(result::put);
      }
      source.forEach(
          (k, v) -> {
            if (!"<<".equals(k)) {
              result.put(String.valueOf(k), merged(v));
            }
          });
      return result;
    }
    if (node instanceof List<?> items) {
      return items.stream().map(DockerComposeTest::merged).toList();
    }
    return node;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object node) {
    return node == null ? Map.of() : (Map<String, Object>) node;
  }

  private static List<?> list(Object node) {
    return node == null ? List.of() : (List<?>) node;
  }

  // ---------------------------------------------------------------------------------------------

  private record Result(int exitCode, String output) {}

  /**
   * {@code docker-compose}, installed with apt-get if missing and possible; else the test aborts.
   */
  private static String dockerCompose() throws Exception {
    if (onPath("docker-compose")) {
      return "docker-compose";
    }
    boolean root = "0".equals(run(ROOT, List.of("id", "-u")).output().trim());
    Assumptions.assumeTrue(
        root && onPath("apt-get"),
        "docker-compose is not installed and cannot be installed here (needs root and apt-get):"
            + " install Debian's docker-compose package to check docker-compose.yml");
    Result update = run(ROOT, List.of("apt-get", "update"));
    Result install = run(ROOT, List.of("apt-get", "install", "-y", "docker-compose"));
    Assumptions.assumeTrue(
        install.exitCode() == 0 && onPath("docker-compose"),
        "apt-get could not install docker-compose:\n" + update.output() + install.output());
    return "docker-compose";
  }

  private static boolean onPath(String program) {
    String path = System.getenv().getOrDefault("PATH", "");
    for (String dir : path.split(File.pathSeparator)) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
        return true;
      }
    }
    return false;
  }

  private static Result run(Path dir, List<String> command) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile());
    builder.redirectErrorStream(true);
    builder.environment().put("DEBIAN_FRONTEND", "noninteractive");
    Process process = builder.start();
    process.getOutputStream().close();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(10, TimeUnit.MINUTES)).as(String.join(" ", command)).isTrue();
    return new Result(process.exitValue(), output);
  }
}
