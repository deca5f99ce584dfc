/**
 * Running on Amazon Managed Service for Apache Flink (MSF): the application's entry point ({@link
 * io.lakestream.pipelines.msf.MsfApplication}), which takes every option from the service's runtime
 * property groups ({@link io.lakestream.pipelines.msf.MsfProperties}, {@link
 * io.lakestream.pipelines.msf.MsfQueryOptions}) and runs the pipeline as {@code lakestream run}
 * would, with the checkpoint storage and restores left to the service. See docs/deploy/msf.md.
 */
package io.lakestream.pipelines.msf;
