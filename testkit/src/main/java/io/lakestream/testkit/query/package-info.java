/**
 * Reading what a lakestream query recorded in its (local) checkpoint location, for tests: the
 * sinks' commit records per epoch, and waits on them.
 */
package io.lakestream.testkit.query;
