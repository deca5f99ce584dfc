/**
 * Kinesis implementations for tests, run with Node.js on 127.0.0.1 and installed from npm on first
 * use into a cache directory: kinesalite (polling) and kinesis-mock (also enhanced fan-out, over
 * HTTPS).
 */
package io.lakestream.testkit.kinesis;
