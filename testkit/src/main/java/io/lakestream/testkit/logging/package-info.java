/** Capturing log lines in tests (log4j 2, the binding Flink and lakestream use). */
package io.lakestream.testkit.logging;
