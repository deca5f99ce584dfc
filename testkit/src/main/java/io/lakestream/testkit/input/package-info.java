/**
 * Generated hostile input for property tests of the parsing paths: {@link
 * io.lakestream.testkit.input.HostileJson} turns a valid JSON record into seeded variants that are
 * truncated, not UTF-8, deeply nested, huge, out of range, of the wrong type, with a key twice, and
 * so on, each labelled with what was done so a test can say which outcome it requires.
 */
package io.lakestream.testkit.input;
