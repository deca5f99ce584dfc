package io.lakestream.connectors.source;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Files are a hard limit, bytes a soft one, 0 means none, and every epoch starts from zero. */
class EpochQuotaTest {

  @Test
  void filesAreHardBytesSoft() {
    EpochQuota files = new EpochQuota(2, 0, false);
    files.count(1_000);
    assertThat(files.hasRoom()).isTrue();
    files.count(1_000);
    assertThat(files.hasRoom()).as("maxFilesPerTrigger=2 reached").isFalse();

    EpochQuota bytes = new EpochQuota(0, 150, false);
    bytes.count(100);
    assertThat(bytes.hasRoom()).as("under 150 bytes: the next file may cross it").isTrue();
    bytes.count(100);
    assertThat(bytes.hasRoom()).as("200 bytes: crossed").isFalse();
  }

  @Test
  void aNewEpochCountsFromZeroAndIgnoringLimitsAdmitsEverything() {
    EpochQuota quota = new EpochQuota(1, 10, false);
    quota.count(100);
    assertThat(quota.hasRoom()).isFalse();
    quota.startEpoch();
    assertThat(quota.hasRoom()).isTrue();

    EpochQuota once = new EpochQuota(1, 10, true);
    once.count(100);
    once.count(100);
    assertThat(once.hasRoom()).isTrue();
    assertThat(new EpochQuota(0, 0, false).hasRoom()).isTrue();
  }
}
