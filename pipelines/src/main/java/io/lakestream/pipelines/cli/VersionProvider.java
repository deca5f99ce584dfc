package io.lakestream.pipelines.cli;

import org.apache.flink.runtime.util.EnvironmentInformation;
import picocli.CommandLine;

/** Prints the lakestream version and the Flink version it runs on. */
final class VersionProvider implements CommandLine.IVersionProvider {
  @Override
  public String[] getVersion() {
    String own = LakestreamCli.class.getPackage().getImplementationVersion();
    return new String[] {
      "lakestream " + (own == null ? "(development build)" : own),
      "Flink " + EnvironmentInformation.getVersion()
    };
  }
}
