/**
 * A Kinesis implementation for tests: kinesalite (an npm package, run with Node.js on 127.0.0.1),
 * installed on first use into a cache directory.
 */
package io.lakestream.testkit.kinesis;
