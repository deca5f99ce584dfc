package io.lakestream.connectors.delta.filter;

import java.util.List;

/** A compiled filter: whether a data file may hold a matching row. */
interface FileTest {
  /** Whether {@code file} may hold a row that matches (true when unknown). */
  boolean mayMatch(DataFileFacts file);

  /** Matches when every one of {@code tests} may. */
  static FileTest allOf(List<FileTest> tests) {
    return file -> tests.stream().allMatch(t -> t.mayMatch(file));
  }

  /** Matches when any one of {@code tests} may. */
  static FileTest anyOf(List<FileTest> tests) {
    return file -> tests.stream().anyMatch(t -> t.mayMatch(file));
  }
}
