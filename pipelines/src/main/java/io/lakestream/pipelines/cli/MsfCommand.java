package io.lakestream.pipelines.cli;

import io.lakestream.pipelines.msf.MsfApplication;
import io.lakestream.runtime.ManagedService;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code lakestream msf}: runs the query of Managed Service for Apache Flink runtime properties in
 * MSF mode ({@link MsfApplication}), also where MSF is not detected (an emulation, a test).
 */
@Command(
    name = "msf",
    mixinStandardHelpOptions = true,
    description =
        "Run the query of Managed Service for Apache Flink runtime property groups (groups"
            + " 'lakestream' and 'source'), with the checkpoint storage and restores left to the"
            + " service. On MSF the jar's main does this by itself.")
class MsfCommand implements Callable<Integer> {

  @Option(
      names = "--properties",
      paramLabel = "<file>",
      description =
          "The runtime properties file. Default: "
              + ManagedService.DEFAULT_PROPERTIES_FILE
              + " (or system property "
              + ManagedService.PROPERTIES_PROPERTY
              + ").")
  Path properties;

  @Override
  public Integer call() {
    return MsfApplication.run(properties != null ? properties : ManagedService.propertiesFile());
  }
}
