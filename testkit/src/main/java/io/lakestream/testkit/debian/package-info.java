/** Debian packages the tests install on a machine that lacks them (CI's is fresh). */
package io.lakestream.testkit.debian;
